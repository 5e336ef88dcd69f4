package inmem

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors/vectorstest"
)

// TestStalledBlockIsBoundByTheCaller stalls a worker on the first block
// of a scan (claimed, never bounded): the caller must bound that block
// itself rather than wait for it, and the answer must be the one a scan
// of a single block gives. The leave/after hand-over runs after once,
// when the last holder leaves.
func TestStalledBlockIsBoundByTheCaller(t *testing.T) {
	const dims, k = 32, 10
	g := vectorstest.NewGen(11, dims, vectorstest.BenchMix)
	s, err := New(dims)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Upsert(context.Background(), g.Fragments(6000)); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, bq := range g.BenchQueries(16) {
		p, ok := s.parts[keyOf(bq.Filter.Tier, bq.Filter.User)]
		if !ok {
			continue
		}
		fb := s.filterBits(p, bq.Filter)
		q := newQuery(bq.Vector)
		ref := newStripes(p, &q, &fb, k, nil, 1)
		ref.finish()
		want := ref.top()

		st := newStripes(p, &q, &fb, k, nil, 4)
		st.next.Add(1) // a worker claims block 0 and is never scheduled again
		st.claimed[0].Store(1)
		finished := make(chan struct{})
		go func() {
			st.finish()
			close(finished)
		}()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Fatal("the caller waits for a block a stalled worker holds")
		}
		checked++
		got := st.top()
		if !slices.Equal(got.sorted(), want.sorted()) {
			t.Fatalf("query %v: top %v with a stalled block, %v in one block", bq.Filter, got.sorted(), want.sorted())
		}
	}

	if checked == 0 {
		t.Fatal("no query reached a partition: the test checks nothing")
	}

	var st stripes
	ran := 0
	st.after = func() { ran++ }
	st.holders.Store(2)
	st.leave()
	if ran != 0 {
		t.Fatal("after ran while a worker still holds the partition")
	}
	st.leave()
	if ran != 1 {
		t.Fatalf("after ran %d times once every holder left, want 1", ran)
	}
}
