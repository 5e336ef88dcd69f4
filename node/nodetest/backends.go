package nodetest

import (
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// OnAuditBackends runs fn as a subtest once per audit backend: the
// in-process history (mutate nil) and ClickHouse (mutate points the node at
// a fresh database named db on a real server, which fails the test when
// clickhouse-server is missing under CI).
func OnAuditBackends(t *testing.T, db string, fn func(t *testing.T, mutate func(*node.Config))) {
	srv := clickhousetest.Start(t)
	for _, backend := range []struct {
		name   string
		mutate func(*node.Config)
	}{
		{"in-process", nil},
		{"clickhouse", func(c *node.Config) { c.Audit.DSN = srv.DSN(clickhousetest.Database(db)) }},
	} {
		t.Run(backend.name, func(t *testing.T) { fn(t, backend.mutate) })
	}
}
