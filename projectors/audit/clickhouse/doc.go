// Package clickhouse is the audit trail in ClickHouse: the Store, an
// audit.Backend that answers every audit question with SQL, and the
// Projector that fills it, every event of the log as a row plus typed
// tables (grants, fragments, reads, read_fragments, query_facts,
// deliveries) and analytics views for consumers that are not cmem. The DDL
// lives in schemas/clickhouse as ordered migrations, which Store.Ensure
// applies; the verdict queries the API runs are sql/*.sql.
//
// The Projector follows the log on its own ordered consumer and goroutine:
// when ClickHouse is down it retries with backoff and nothing else waits;
// when it is back, it resumes after the highest revision stored, so no row
// is lost, and redelivered rows are harmless because every table is keyed by
// event id and every query counts distinct ids.
//
// Trail wires this next to the in-process audit.History for one process,
// with or without a DSN. The package imports audit (the port, its types
// and the history it is tested against); audit imports nothing of it.
// clickhouse-go is imported as chgo, since this package has its name.
package clickhouse
