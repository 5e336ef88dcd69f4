// Package e2e holds cmem's end-to-end feature tests: each starts real
// nodes (node/nodetest) on an embedded NATS server, and on Weaviate and
// ClickHouse where a test needs them, and drives them through the public
// API, the bus and the CLI — the copying-model leak test, revokes during
// slow tool calls, erasure, expiry, snapshots, labels, the README's
// walkthrough. It has no code of its own; the tests are its content.
package e2e
