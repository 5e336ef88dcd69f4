// Package eventlog owns cmem's log: a JetStream stream that is the only
// source of truth. It starts an embedded nats-server (JetStream on, file
// storage under the data dir) unless it is given the URL of a cluster,
// provisions the streams idempotently, appends events (checked against their
// schema, deduplicated by event id through Nats-Msg-Id), replays them in
// order, and records dead letters. AppendAtomic stores many events as one
// JetStream atomic batch (all or nothing, one round trip); with
// Config.GroupCommit, concurrent appends without an expectation travel to
// the leader together the same way (groupcommit.go).
//
// Subjects: an event whose envelope subject is "grants/user-agent/u/a" is
// stored on "cmem.events.grants.user-agent.u.a" in stream CMEM_EVENTS; the
// revision of an event is its stream sequence. Dead letters are stored on
// "cmem.deadletter.<consumer>.<revision>" in stream CMEM_DEADLETTER, with the
// original bytes as data and the reason in the Cmem-Reason header.
package eventlog
