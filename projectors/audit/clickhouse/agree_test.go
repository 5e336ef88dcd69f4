package clickhouse_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// verdictCounts is how many reads and deliveries a comparison saw judged
// admissible and not, so callers can check both verdicts were exercised.
type verdictCounts struct{ reads, badReads, deliveries, badDeliveries int }

// compareBackends asks both services the same questions about w and fails
// on the first different answer.
func compareBackends(t *testing.T, r *rig, w *workload, seed uint64, visibleQuestions, readQuestions int) (n verdictCounts) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 99))
	end := w.times[len(w.times)-1]
	for _, at := range w.times {
		end = later(end, at)
	}
	span := end.Sub(w.t0) + 2*time.Minute
	begin := time.Now()
	for i := range visibleQuestions {
		at := w.t0.Add(-time.Minute + time.Duration(rng.Int64N(int64(span))))
		q := audit.VisibleQuery{User: w.users[rng.IntN(len(w.users))], Agent: w.agents[rng.IntN(len(w.agents))], At: &at}
		if i%3 == 0 { // exactly when an edge of the question changed: ties decide there
			c := w.changes[rng.IntN(len(w.changes))]
			at = c.at
			if c.userAgent {
				q.User = c.from
			} else {
				q.Agent = c.from
			}
		}
		want, err := r.inproc.Visible(ctx, adminID, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ch.Visible(ctx, adminID, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Fragments, want.Fragments) {
			t.Fatalf("visible(%s, %s, %s): clickhouse %v, in-process %v", q.User, q.Agent, at.Format(time.RFC3339Nano), got.Fragments, want.Fragments)
		}
	}
	t.Logf("visible: %s", time.Since(begin))
	begin = time.Now()
	for _, i := range rng.Perm(len(w.fragments))[:min(len(w.fragments), readQuestions)] {
		f := w.fragments[i]
		want, err := r.inproc.Reads(ctx, adminID, f, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ch.Reads(ctx, adminID, f, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("reads of %s:\nclickhouse %+v\nin-process %+v", f, got, want)
		}
		for _, rd := range want {
			if rd.Admissible {
				n.reads++
			} else {
				n.badReads++
			}
		}
	}
	t.Logf("reads: %s", time.Since(begin))
	begin = time.Now()
	for _, i := range rng.Perm(len(w.delivered))[:min(len(w.delivered), readQuestions)] {
		q := w.delivered[i]
		want, err := r.inproc.Deliveries(ctx, adminID, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ch.Deliveries(ctx, adminID, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("deliveries of %s:\nclickhouse %s\nin-process %s", q, dumpReads(got), dumpReads(want))
		}
		for _, d := range want {
			if d.Admissible {
				n.deliveries++
			} else {
				n.badDeliveries++
			}
		}
	}
	t.Logf("deliveries: %s", time.Since(begin))
	begin = time.Now()
	defer func() { t.Logf("violations and metrics: %s", time.Since(begin)) }()
	third := span / 3
	windows := []audit.WindowQuery{{}, {From: ptr(w.t0.Add(third)), To: ptr(w.t0.Add(2 * third))}, {From: ptr(w.t0), To: ptr(w.t0)}}
	for _, win := range windows {
		want, err := r.inproc.Violations(ctx, adminID, win)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ch.Violations(ctx, adminID, win)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("violations in %v: clickhouse %d rows, in-process %d rows\n%s\n%s", win, len(got), len(want), dumpReads(got), dumpReads(want))
		}
		for _, bin := range []time.Duration{7 * time.Second, time.Minute, time.Hour} {
			q := audit.MetricsQuery{WindowQuery: win, Bin: bin}
			want, err := r.inproc.Metrics(ctx, adminID, q)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.ch.Metrics(ctx, adminID, q)
			if err != nil {
				t.Fatal(err)
			}
			got.Revision, want.Revision = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("metrics over %v in bins of %s differ:\nclickhouse %s\nin-process %s", win, bin, dump(got), dump(want))
			}
		}
	}
	return n
}

// TestBackendsAgreeOnRandomWorkload is the main property: on a random log
// (backdated events, ties, stale and forged reads), ClickHouse answers
// every audit question exactly as the in-process history does.
func TestBackendsAgreeOnRandomWorkload(t *testing.T) {
	srv := clickhousetest.Shared(t)
	r := newRig(t, srv, clickhouse.Config{BatchSize: 700})
	w := newWorkload(7, 12, 6, 8, 4000)
	start := time.Now()
	r.append(t, w.envs)
	r.caughtUp(t)
	t.Logf("%d events in both backends after %s", len(w.envs), time.Since(start))
	start = time.Now()
	n := compareBackends(t, r, w, 1, 300, 300)
	t.Logf("compared in %s: %+v", time.Since(start), n)
	if n.reads == 0 || n.badReads == 0 || n.deliveries == 0 || n.badDeliveries == 0 {
		t.Fatalf("the workload exercised %+v; want admissible and inadmissible reads and deliveries", n)
	}
	var labels int
	for _, q := range w.delivered {
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
		t.Fatalf("the workload produced no queries, bins or reuse: %s", dump(all))
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

func ptr[T any](v T) *T { return &v }

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func dump(m audit.Metrics) string { return fmt.Sprintf("%+v", m) }

func dumpReads(rs []audit.Read) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%+v label=%+v\n", r, r.Label)
	}
	return b.String()
}
