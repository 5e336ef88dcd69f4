package audittest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/audit"
)

// Counts is how many reads and deliveries a comparison saw judged
// admissible and not, so callers can check both verdicts were exercised.
type Counts struct{ Reads, BadReads, Deliveries, BadDeliveries int }

// Compare asks backend and ref (the reference) the same questions about w,
// a workload both hold, and fails on the first different answer: M(u,a,t)
// at random times and exactly at grant changes and expiries, the reads of
// up to readQuestions fragments and the deliveries of as many queries,
// and violations and metrics over three windows in three bin widths. seed
// picks the questions.
func Compare(t *testing.T, ref, backend *audit.Service, w *Workload, seed uint64, visibleQuestions, readQuestions int) (n Counts) {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 99))
	end := w.Times[len(w.Times)-1]
	for _, at := range w.Times {
		end = later(end, at)
	}
	span := end.Sub(w.T0) + 2*time.Minute
	begin := time.Now()
	for i := range visibleQuestions {
		at := w.T0.Add(-time.Minute + time.Duration(rng.Int64N(int64(span))))
		q := audit.VisibleQuery{User: w.Users[rng.IntN(len(w.Users))], Agent: w.Agents[rng.IntN(len(w.Agents))], At: &at}
		if i%3 == 0 { // exactly when an edge of the question changed: ties decide there
			c := w.changes[rng.IntN(len(w.changes))]
			at = c.at
			if c.userAgent {
				q.User = c.from
			} else {
				q.Agent = c.from
			}
		}
		want, err := ref.Visible(ctx, admin, q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backend.Visible(ctx, admin, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Fragments, want.Fragments) {
			t.Fatalf("visible(%s, %s, %s): backend %v, reference %v", q.User, q.Agent, at.Format(time.RFC3339Nano), got.Fragments, want.Fragments)
		}
	}
	t.Logf("visible: %s", time.Since(begin))
	begin = time.Now()
	for _, i := range rng.Perm(len(w.Fragments))[:min(len(w.Fragments), readQuestions)] {
		f := w.Fragments[i]
		want, err := ref.Reads(ctx, admin, f, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backend.Reads(ctx, admin, f, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("reads of %s:\nbackend   %+v\nreference %+v", f, got, want)
		}
		for _, rd := range want {
			if rd.Admissible {
				n.Reads++
			} else {
				n.BadReads++
			}
		}
	}
	t.Logf("reads: %s", time.Since(begin))
	begin = time.Now()
	for _, i := range rng.Perm(len(w.Delivered))[:min(len(w.Delivered), readQuestions)] {
		q := w.Delivered[i]
		want, err := ref.Deliveries(ctx, admin, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backend.Deliveries(ctx, admin, q, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("deliveries of %s:\nbackend   %s\nreference %s", q, dumpReads(got), dumpReads(want))
		}
		for _, d := range want {
			if d.Admissible {
				n.Deliveries++
			} else {
				n.BadDeliveries++
			}
		}
	}
	t.Logf("deliveries: %s", time.Since(begin))
	begin = time.Now()
	defer func() { t.Logf("violations and metrics: %s", time.Since(begin)) }()
	third := span / 3
	windows := []audit.WindowQuery{{}, {From: ptr(w.T0.Add(third)), To: ptr(w.T0.Add(2 * third))}, {From: ptr(w.T0), To: ptr(w.T0)}}
	for _, win := range windows {
		want, err := ref.Violations(ctx, admin, win)
		if err != nil {
			t.Fatal(err)
		}
		got, err := backend.Violations(ctx, admin, win)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("violations in %v: backend %d rows, reference %d rows\n%s\n%s", win, len(got), len(want), dumpReads(got), dumpReads(want))
		}
		for _, bin := range []time.Duration{7 * time.Second, time.Minute, time.Hour} {
			q := audit.MetricsQuery{WindowQuery: win, Bin: bin}
			want, err := ref.Metrics(ctx, admin, q)
			if err != nil {
				t.Fatal(err)
			}
			got, err := backend.Metrics(ctx, admin, q)
			if err != nil {
				t.Fatal(err)
			}
			got.Revision, want.Revision = 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("metrics over %v in bins of %s differ:\nbackend   %s\nreference %s", win, bin, dump(got), dump(want))
			}
		}
	}
	return n
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func dump(m audit.Metrics) string { return fmt.Sprintf("%+v", m) }
