package scenario

import (
	"reflect"
	"testing"

	"github.com/cmem/cmem/audit/clickhousetest"
)

// With CMEM_CLICKHOUSE_DSN the embedded node's audit trail is ClickHouse,
// and the scenario's figures come from it: the same uses per (user, agent)
// as from the in-process trail, nothing outside the graph, no violation.
func TestScenario3OnClickHouse(t *testing.T) {
	cfg := Config{Scenario: 3, Users: 2, PerCategory: 1, Seed: 7}
	inproc := run(t, cfg)
	ch := clickhousetest.Start(t)
	t.Setenv("CMEM_CLICKHOUSE_DSN", ch.DSN(clickhousetest.Database("scenario")))
	onCH := run(t, cfg)
	for b := range inproc.S3.Blocks {
		a, c := inproc.S3.Blocks[b].Matrix, onCH.S3.Blocks[b].Matrix
		if !reflect.DeepEqual(a.AgentUse, c.AgentUse) || !reflect.DeepEqual(a.AgentGranted, c.AgentGranted) {
			t.Fatalf("block t%d: agent uses %v (in-process) vs %v (ClickHouse)", b, a.AgentUse, c.AgentUse)
		}
	}
}
