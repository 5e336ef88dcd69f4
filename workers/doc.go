// Package workers will hold the query pipeline's workers — coordinator,
// agent runtime, aggregator, write policy and embedder — run as Watermill
// handlers on durable JetStream consumers shared by any number of
// processes. Projections (package projectors) are not workers: each process
// rebuilds its own from the log with an ordered consumer.
package workers
