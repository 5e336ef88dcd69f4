// Package cluster holds the tests that run cmem as a cluster — three
// nats-server processes at R3, two gateways and two workers, all real
// processes — and inject faults under load (kill -9 of NATS nodes,
// gateways and workers). The harness itself is in cluster/clustertest.
package cluster
