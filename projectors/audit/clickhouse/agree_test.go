package clickhouse_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit"
	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// TestBackendsAgreeOnRandomWorkload is the main property: on a random log
// (backdated events, ties, stale and forged reads), ClickHouse answers
// every audit question exactly as the in-process history does.
func TestBackendsAgreeOnRandomWorkload(t *testing.T) {
	srv := clickhousetest.Shared(t)
	r := newRig(t, srv, clickhouse.Config{BatchSize: 700})
	w := audittest.NewWorkload(7, 12, 6, 8, 4000)
	start := time.Now()
	r.append(t, w.Envs)
	r.caughtUp(t)
	t.Logf("%d events in both backends after %s", len(w.Envs), time.Since(start))
	start = time.Now()
	n := audittest.Compare(t, r.inproc, r.ch, w, 1, 300, 300)
	t.Logf("compared in %s: %+v", time.Since(start), n)
	if n.Reads == 0 || n.BadReads == 0 || n.Deliveries == 0 || n.BadDeliveries == 0 {
		t.Fatalf("the workload exercised %+v; want admissible and inadmissible reads and deliveries", n)
	}
	var labels int
	for _, q := range w.Delivered {
		ds, err := r.inproc.Deliveries(context.Background(), adminID, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Reason == audit.ReasonLabel {
				labels++
			}
		}
	}
	if labels == 0 {
		t.Fatal("no delivery was refused for its label; the workload does not exercise the rule")
	}
	all, err := r.inproc.Metrics(context.Background(), adminID, audit.MetricsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Queries) == 0 || all.Reuse.CrossUserReads == 0 || len(all.Bins) == 0 {
		t.Fatalf("the workload produced no queries, bins or reuse: %+v", all)
	}
	checkVerdictView(t, r)
}

// checkVerdictView holds the read_verdicts and delivery_verdicts views (for
// consumers) to the queries the API runs.
func checkVerdictView(t *testing.T, r *rig) {
	t.Helper()
	ctx := context.Background()
	rows, err := r.store.Conn().Query(ctx, `SELECT event_id, fragment_id, reason FROM (
    SELECT event_id, fragment_id, reason, revision FROM read_verdicts WHERE admissible = 0
    UNION ALL
    SELECT event_id, '' AS fragment_id, reason, revision FROM delivery_verdicts WHERE admissible = 0
) ORDER BY revision, fragment_id`)
	if err != nil {
		t.Fatal(err)
	}
	var fromView []string
	for rows.Next() {
		var e, f, reason string
		if err := rows.Scan(&e, &f, &reason); err != nil {
			t.Fatal(err)
		}
		fromView = append(fromView, e+"/"+f+"/"+reason)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	api, err := r.ch.Violations(ctx, adminID, audit.WindowQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var fromAPI []string
	for _, v := range api {
		fromAPI = append(fromAPI, v.Event+"/"+v.Fragment+"/"+v.Reason)
	}
	if !reflect.DeepEqual(fromView, fromAPI) {
		t.Fatalf("the verdict views find %d violations, the API %d", len(fromView), len(fromAPI))
	}
}
