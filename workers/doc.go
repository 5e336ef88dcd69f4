// Package workers runs the query pipeline on the bus. It holds no
// application logic: each stage is a use case of app.Pipeline (Coordinate,
// RunAgentTurn, Delivery, FailStale), and this package turns the log's
// events into their commands and publishes finished queries to callers
// waiting on NATS.
//
// Each stage is a Watermill handler on a durable JetStream consumer shared
// by every worker process, so adding a process adds throughput. Consumer
// names are stable (renaming one creates a new durable consumer that starts
// from the beginning of the stream). Events that are not valid go to the
// dead-letter subject; anything else that fails is retried with backoff.
//
// Projections are not workers: each process rebuilds its own from the log
// with an ordered consumer (package projectors).
package workers
