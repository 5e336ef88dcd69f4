// Package projectors runs read models (projections) over the event log.
//
// A Runner follows the log from the beginning with an ordered consumer,
// checks every event against its JSON Schema (on GOMAXPROCS workers, batch
// by batch, between the reader and the applier: see pipeline.go), and hands
// it to each of its projections in log order, one event at a time. An event that fails the check, or that a
// projection rejects, is recorded on the dead-letter subject of that
// projection with the reason, and the runner moves on: one bad event never
// stops the stream. Projections live in memory and are rebuilt at start,
// from the newest snapshot (package snapshot) plus the tail of the log, or
// from the whole log; nothing but the log is a source of truth. Hold and
// AfterBatch let a snapshot see every projection at one revision.
//
// Readers that need a projection at least as fresh as some revision call
// WaitFor; that is how min_revision and read fences are served.
package projectors
