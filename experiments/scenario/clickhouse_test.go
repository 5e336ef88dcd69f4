package scenario

import (
	"reflect"
	"testing"

	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// With CMEM_CLICKHOUSE_DSN the embedded node's audit trail is ClickHouse,
// and the scenario's figures come from it: metrics for every query (Run
// fails otherwise), nothing outside the graph, no violation, and the same
// granted cells as the in-process run of the same seed. (Which agent
// answers may differ between runs: routing looks at what memory reaches.)
func TestScenario3OnClickHouse(t *testing.T) {
	cfg := Config{Scenario: 3, Users: 2, PerCategory: 1, Seed: 7}
	inproc := run(t, cfg)
	ch := clickhousetest.Start(t)
	t.Setenv("CMEM_CLICKHOUSE_DSN", ch.DSN(clickhousetest.Database("scenario")))
	onCH := run(t, cfg)
	for b := range inproc.S3.Blocks {
		a, c := inproc.S3.Blocks[b].Matrix, onCH.S3.Blocks[b].Matrix
		if !reflect.DeepEqual(a.AgentGranted, c.AgentGranted) || !reflect.DeepEqual(a.ResourceGranted, c.ResourceGranted) {
			t.Fatalf("block t%d: granted %v (in-process) vs %v (ClickHouse)", b, a.AgentGranted, c.AgentGranted)
		}
		if len(onCH.S3.Blocks[b].Queries) != len(inproc.S3.Blocks[b].Queries) {
			t.Fatalf("block t%d: %d queries vs %d", b, len(onCH.S3.Blocks[b].Queries), len(inproc.S3.Blocks[b].Queries))
		}
	}
}
