package weaviate

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// waitReady waits, up to within, until f's reader class is ready, woken
// by the end of each materialisation pass (and, for a shared class, whose
// flags are trusted only after a fresh read of the registry, every 50 ms).
func waitReady(tb testing.TB, s *Store, f vectors.Filter, within time.Duration) {
	tb.Helper()
	deadline := time.After(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	label := readerLabel(f)
	for {
		s.labels.mu.RLock()
		c, known := s.labels.lookup(label)
		passed := s.labels.passed
		s.labels.mu.RUnlock()
		if c != nil {
			return
		}
		if !known {
			tb.Fatalf("reader class of %+v is not registered", f)
		}
		s.labels.signal()
		select {
		case <-passed:
		case <-tick.C:
		case <-deadline:
			tb.Fatalf("reader class of %+v not ready after %v", f, within)
		}
	}
}

// blockPasses makes every materialisation pass wait until the returned
// function is called (also called at cleanup).
func blockPasses(tb testing.TB, s *Store) (release func()) {
	gate := make(chan struct{})
	s.labels.mu.Lock()
	s.labels.beforePass = func([]string) { <-gate }
	s.labels.mu.Unlock()
	var done bool
	release = func() {
		if !done {
			done = true
			close(gate)
		}
	}
	tb.Cleanup(release)
	return release
}

// searchExact asserts that Search with k covering every match returns
// exactly the reference's matching set, and that the top 5 are the
// reference's top 5 (the label and exclusion filters leave allow-lists far
// below flatSearchCutoff, which Weaviate searches exactly).
func searchExact(tb testing.TB, s *Store, ref *vectorstest.Reference, q []float32, f vectors.Filter, what string) {
	tb.Helper()
	match := ref.MatchSet(f)
	for _, k := range []int{len(match) + 3, 5} {
		hits, err := s.Search(tb.Context(), q, f, k)
		if err != nil {
			tb.Fatalf("%s: Search: %v", what, err)
		}
		got := make([]string, len(hits))
		for i, h := range hits {
			got[i] = h.ID
			if !match[h.ID] {
				m, _ := ref.Fragment(h.ID)
				tb.Fatalf("%s: hit %s (tier %s, user %s, agents %v, resources %v) is not readable through %+v",
					what, h.ID, m.Tier, m.User, m.Agents, m.Resources, f)
			}
		}
		var want []string
		if k > len(match) {
			want = slices.Sorted(maps.Keys(match))
			slices.Sort(got)
		} else {
			for _, r := range ref.Search(q, f, k) {
				want = append(want, r.ID)
			}
		}
		if !slices.Equal(got, want) {
			tb.Fatalf("%s: k=%d with %d readable fragments:\n got %v\nwant %v", what, k, len(match), got, want)
		}
	}
}

func uuidN(n int) string { return fmt.Sprintf("0190e4a0-0000-7000-8000-%012d", n) }

func upsertBoth(tb testing.TB, s *Store, ref *vectorstest.Reference, fs ...vectors.Fragment) {
	tb.Helper()
	if err := s.Upsert(tb.Context(), fs); err != nil {
		tb.Fatalf("Upsert: %v", err)
	}
	ref.Upsert(fs)
}
