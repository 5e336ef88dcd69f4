// Package node wires one cmem process: the event log (embedded or external
// NATS), the in-memory projections and their runner, the use cases, and the
// HTTP gateway. cmd/cmem and the end-to-end tests start the same Node, so
// what is tested is what runs.
package node
