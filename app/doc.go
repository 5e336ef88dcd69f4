// Package app holds cmem's use cases, one per file: registering users,
// agents and resources, granting and revoking edges, answering "what could u
// use at t", memory views and writes, and the query pipeline's stages
// (Pipeline: Coordinate, RunAgentTurn, Delivery, FailStale). It turns
// commands into events on the log and answers questions from projections,
// and it owns the rules that make that safe: who may do what, how fresh a
// projection must be before it may answer, and which labels content
// carries.
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
