// Package audit owns cmem's audit trail and what is asked of it: which
// fragments were admissible to (user, agent) at any past time, every read
// of a fragment with whether it was admissible when it was served, every
// delivery of a query's answer to its user with whether its label was (a
// delivery is a read by the user itself, judged by access.Admits), the
// reads and deliveries that were not (violations), and the paper's usage
// metrics.
//
// Two backends answer the same questions identically (tests hold them to
// it on random workloads):
//
//   - History, a projection kept in memory next to the access graph; it is
//     what answers when no ClickHouse is configured;
//   - Store, ClickHouse, fed by the Projector: every event of the log as a
//     row, plus typed tables (grants, fragments, reads, read_fragments,
//     query_facts, deliveries) and analytics views for consumers that are not cmem. The
//     DDL lives in schemas/clickhouse as ordered migrations.
//
// The Projector follows the log on its own ordered consumer and goroutine:
// when ClickHouse is down it retries with backoff and nothing else waits;
// when it is back, it resumes after the highest revision stored, so no row
// is lost, and redelivered rows are harmless because every table is keyed by
// event id and every query counts distinct ids.
//
// Service holds the use cases (admin only) over either backend; the gateway
// maps its errors, which wrap package domain's, to HTTP. Trail wires the three
// for one process (node does it).
package audit
