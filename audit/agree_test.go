package audit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/audit"
	"github.com/cmem/cmem/audit/clickhousetest"
)

// compareBackends asks both services the same questions about w and fails
// on the first different answer. It returns how many reads it saw judged
// admissible and not, so callers can check both verdicts were exercised.
func compareBackends(t *testing.T, r *rig, w *workload, seed uint64, visibleQuestions, readQuestions int) (admissible, violations int) {
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
				admissible++
			} else {
				violations++
			}
		}
	}
	t.Logf("reads: %s", time.Since(begin))
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
			t.Fatalf("violations in %v: clickhouse %d rows, in-process %d rows\n%+v\n%+v", win, len(got), len(want), got, want)
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
	return admissible, violations
}

// TestBackendsAgreeOnRandomWorkload is the main property: on a random log
// (backdated events, ties, stale and forged reads), ClickHouse answers
// every audit question exactly as the in-process history does.
func TestBackendsAgreeOnRandomWorkload(t *testing.T) {
	srv := clickhousetest.Shared(t)
	r := newRig(t, srv, audit.Config{BatchSize: 700})
	w := newWorkload(7, 12, 6, 8, 4000)
	start := time.Now()
	r.append(t, w.envs)
	r.caughtUp(t)
	t.Logf("%d events in both backends after %s", len(w.envs), time.Since(start))
	start = time.Now()
	ok, bad := compareBackends(t, r, w, 1, 300, 300)
	t.Logf("compared in %s: %d admissible and %d inadmissible reads", time.Since(start), ok, bad)
	if ok == 0 || bad == 0 {
		t.Fatalf("the workload exercised %d admissible and %d inadmissible reads; want both", ok, bad)
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

// checkVerdictView holds the read_verdicts view (for consumers) to the
// query the API runs.
func checkVerdictView(t *testing.T, r *rig) {
	t.Helper()
	ctx := context.Background()
	rows, err := r.store.Conn().Query(ctx, "SELECT event_id, fragment_id, reason FROM read_verdicts WHERE admissible = 0 ORDER BY revision, fragment_id")
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
		t.Fatalf("read_verdicts view finds %d violations, the API %d", len(fromView), len(fromAPI))
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
