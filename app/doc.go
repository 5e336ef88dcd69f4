// Package app holds cmem's use cases. It turns commands into events on the
// log and answers questions from projections, and it owns the rules that
// make that safe: who may do what, how fresh a projection must be before it
// may answer, and which labels content carries.
//
// Files, as `ls` shows them:
//
//   - One use case per file, named for it: register_*.go, grant.go,
//     set_policy.go, lifecycle.go (tokens, deactivation), erase_user.go,
//     delete_fragment.go, access_of.go, access_graph.go, access_changes.go,
//     memory_view.go, write_fragment.go, graph_memory.go, submit_query.go,
//     get_query.go, list_queries.go, live_events.go, usage.go, digest.go,
//     batch.go.
//   - The query pipeline (Pipeline: Coordinate, RunAgentTurn, Delivery,
//     FailStale), pipeline_*.go: pipeline.go (config, shared stage
//     helpers, FailStale), pipeline_coordinate.go, pipeline_scheme.go and
//     pipeline_schemes.go (coordination schemes), pipeline_reach.go,
//     pipeline_agent_turn.go, pipeline_tools.go (tool calls),
//     pipeline_memory.go, pipeline_aggregate.go, pipeline_deliver.go.
//   - What several of them share, in files named for it: app.go (ports,
//     App, appending and fencing), identity.go, snapshot.go, as_of.go,
//     exists.go, delivery.go (the read rule for what a user is shown),
//     erasure.go, fragment.go, lineage.go, rerank.go, provider_errors.go,
//     registration_limits.go, nonnil.go, metrics.go.
//
// Errors are package domain's (domain.ErrInvalid, …), wrapped with %w.
//
// Labels (information flow): every text a model is shown carries the
// agents and resources it derives from (events.Label); every output of a
// model call carries the union of its whole context's labels; fragments
// written from an output take that union as provenance. Delivery is a read:
// an answer and its steps are shown only while their labels are admissible
// to the user (access.Admits, the one read rule), checked every time they
// are served.
//
// Each pipeline stage decides on one permission Snapshot (one fence on the
// stream leader); only a tool call, which can come long after its stage
// began, fences again.
//
// It declares the interfaces it needs (EventLog, AccessView, Freshness, …)
// and knows nothing of HTTP or NATS; the gateway, the workers and the wiring
// in node plug real parts in.
package app
