// Package audit owns cmem's audit trail and what is asked of it: which
// fragments were admissible to (user, agent) at any past time, every read
// of a fragment with whether it was admissible when it was served, every
// delivery of a query's answer to its user with whether its label was (a
// delivery is a read by the user itself, judged by access.Admits), the
// reads and deliveries that were not (violations), and the paper's usage
// metrics.
//
// Backend is the port those questions are asked through. Two backends
// implement it and answer identically (package audittest holds every
// backend to one contract suite, with History as its reference):
//
//   - History, a projection kept in memory next to the access graph; it is
//     what answers when no ClickHouse is configured;
//   - the Store of package clickhouse (a child of this one, which imports
//     it and not the other way round), fed by its own projector, with the
//     DDL in schemas/clickhouse.
//
// Service holds the use cases (admin only) over either backend; the gateway
// maps its errors, which wrap package domain's, to HTTP. clickhouse.Trail
// wires the history, the store and the service for one process (node does
// it).
package audit
