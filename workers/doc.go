// Package workers runs the query pipeline of the paper (§3.3, App. B.1) on
// the bus: a coordinator picks an agent and a subquery per round from
// A(u,t) only, an agent runtime answers it with its memory view first and
// the resources in R(a,t) as tools, its response is written to memory by
// the write policies with provenance propagated from what it read, and an
// aggregator merges the turns into the answer.
//
// Each stage is a Watermill handler on a durable JetStream consumer shared
// by every worker process, so adding a process adds throughput. A stage
// reads the query's state from the Queries projection (rebuilt from the log
// in each process), decides, and appends events whose ids are derived from
// the step (query, round, stage): a stage run twice after a crash writes
// nothing twice, and a query is answered exactly once.
//
// Projections are not workers: each process rebuilds its own from the log
// with an ordered consumer (package projectors).
package workers
