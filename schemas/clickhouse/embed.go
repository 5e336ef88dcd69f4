// Package clickhouse holds the DDL of cmem's audit trail in ClickHouse as
// ordered migrations (NNNN_name.sql). Every statement runs on ClickHouse
// 18.16 (Debian's package) and on current releases, and is idempotent
// (IF NOT EXISTS), so two projectors migrating at once cannot conflict.
// Package projectors/audit/clickhouse applies the files in order and
// records each in the schema_migrations table.
//
// Conventions the files keep: event time is time_ns (Int64 unix
// nanoseconds) for exact answers, plus time (DateTime('UTC'), seconds) only
// for partitioning; every table is a ReplacingMergeTree whose sort key ends
// in the event id, and queries never rely on a merge having happened.
package clickhouse

import "embed"

// FS holds the migrations, applied in file-name order.
//
//go:embed *.sql
var FS embed.FS
