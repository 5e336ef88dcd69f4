package vectorstest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
)

// NewStore returns an empty store of dims dimensions that the test owns;
// it must register its own cleanup.
type NewStore func(t *testing.T, dims int) vectors.Store

// Run runs the contract suite against the backend newStore builds. Every
// subtest gets a fresh store.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewStore)
	}{
		{"UpsertCountGet", testUpsertCountGet},
		{"UpsertReplacesByID", testUpsertReplaces},
		{"TierSeparation", testTiers},
		{"PrivateOnlyToItsUser", testPrivate},
		{"SubsetFilter", testSubset},
		{"IncompleteExcludedNeverLeaks", testIncompleteExcluded},
		{"RankingByCosine", testRanking},
		{"TiesByAscendingID", testTies},
		{"KLimits", testKLimits},
		{"Reset", testReset},
		{"Delete", testDelete},
		{"DimensionMismatch", testDimension},
		{"ConcurrentUse", testConcurrent},
		{"RandomDifferential", testDifferential},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore) })
	}
}

const dims = 8

// id returns a fixed UUID whose string order is n's order.
func id(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// unit returns the dims-vector with 1 at i.
func unit(i int) []float32 {
	v := make([]float32, dims)
	v[i%dims] = 1
	return v
}

func frag(n int, tier, user string, agents, resources []string, vec []float32) vectors.Fragment {
	return vectors.Fragment{
		ID: id(n), Key: fmt.Sprintf("key %d", n), Value: fmt.Sprintf("value %d", n),
		Tier: tier, User: user, Agents: agents, Resources: resources,
		CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC).Add(time.Duration(n) * time.Second),
		Revision:  uint64(100 + n), Model: "m1", Vector: vec,
	}
}

func shared(agents, resources []string) vectors.Filter {
	return vectors.Filter{Tier: "shared", AllowedAgents: agents, AllowedResources: resources}
}

// filter builds a consistent Filter over a small fixed universe.
func filter(tier, user string, agents, resources []string) vectors.Filter {
	return vectors.NewFilter(tier, user, agents, []string{"a", "b", "c"}, resources, []string{"r1", "r2", "r3"})
}

func upsert(t *testing.T, s vectors.Store, fs ...vectors.Fragment) {
	t.Helper()
	if err := s.Upsert(t.Context(), fs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

func search(t *testing.T, s vectors.Store, q []float32, f vectors.Filter, k int) []vectors.Hit {
	t.Helper()
	hits, err := s.Search(t.Context(), q, f, k)
	if err != nil {
		t.Fatalf("Search(%+v, k=%d): %v", f, k, err)
	}
	return hits
}

func count(t *testing.T, s vectors.Store) int {
	t.Helper()
	n, err := s.Count(t.Context())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	return n
}

func ids(hits []vectors.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func wantIDs(t *testing.T, what string, hits []vectors.Hit, want ...string) {
	t.Helper()
	if got := ids(hits); !slices.Equal(got, want) {
		t.Fatalf("%s: got ids %v, want %v", what, got, want)
	}
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// equalFragment compares everything a Store must keep; nil and empty id
// lists are the same set.
func equalFragment(got, want vectors.Fragment, withVector bool) error {
	switch {
	case got.ID != want.ID, got.Key != want.Key, got.Value != want.Value,
		got.Tier != want.Tier, got.User != want.User, got.Model != want.Model,
		got.Revision != want.Revision:
		return fmt.Errorf("got %+v, want %+v", got, want)
	case !sameSet(got.Agents, want.Agents), !sameSet(got.Resources, want.Resources):
		return fmt.Errorf("provenance: got %v/%v, want %v/%v", got.Agents, got.Resources, want.Agents, want.Resources)
	case !got.CreatedAt.Equal(want.CreatedAt):
		return fmt.Errorf("created at: got %v, want %v", got.CreatedAt, want.CreatedAt)
	case withVector && !slices.Equal(got.Vector, want.Vector):
		return fmt.Errorf("vector: got %v, want %v", got.Vector, want.Vector)
	}
	return nil
}

func testUpsertCountGet(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	if n := count(t, s); n != 0 {
		t.Fatalf("new store counts %d", n)
	}
	fs := []vectors.Fragment{
		frag(1, "shared", "alice", []string{"a"}, nil, unit(0)),
		frag(2, "private", "alice", []string{"a", "b"}, []string{"r1"}, []float32{0.5, -2, 0, 0, 0, 0, 0, 1.25}),
		frag(3, "shared", "bob", []string{"c"}, []string{"r1", "r2"}, unit(3)),
	}
	upsert(t, s, fs...)
	if n := count(t, s); n != 3 {
		t.Fatalf("Count = %d, want 3", n)
	}
	got, err := s.Get(t.Context(), []string{id(3), id(1), id(99), id(2)})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("Get returned %d fragments, want 3 (the unknown id has none)", len(got))
	}
	for _, g := range got {
		n := slices.IndexFunc(fs, func(f vectors.Fragment) bool { return f.ID == g.ID })
		if n < 0 {
			t.Fatalf("Get returned unknown id %s", g.ID)
		}
		if err := equalFragment(g, fs[n], true); err != nil {
			t.Errorf("Get %s: %v", g.ID, err)
		}
	}
	if got, err := s.Get(t.Context(), nil); err != nil || len(got) != 0 {
		t.Fatalf("Get(nil) = %v, %v; want nothing", got, err)
	}
	hits := search(t, s, unit(3), shared([]string{"a", "b", "c"}, []string{"r1", "r2"}), 10)
	wantIDs(t, "shared search", hits, id(3), id(1))
	for _, h := range hits {
		n := slices.IndexFunc(fs, func(f vectors.Fragment) bool { return f.ID == h.ID })
		if err := equalFragment(h.Fragment, fs[n], false); err != nil {
			t.Errorf("hit %s: %v", h.ID, err)
		}
	}
}

func testUpsertReplaces(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	first := frag(1, "shared", "alice", []string{"a"}, nil, unit(0))
	upsert(t, s, first, frag(2, "shared", "bob", []string{"a"}, nil, unit(1)))
	upsert(t, s, first) // a replay
	if n := count(t, s); n != 2 {
		t.Fatalf("after a replay Count = %d, want 2", n)
	}
	// Same id, new content, moved to alice's private tier.
	moved := frag(1, "private", "alice", []string{"b"}, []string{"r2"}, unit(5))
	moved.Key = "replaced"
	upsert(t, s, moved)
	if n := count(t, s); n != 2 {
		t.Fatalf("after replacing Count = %d, want 2", n)
	}
	all := []string{"a", "b", "c"}
	wantIDs(t, "shared after move", search(t, s, unit(0), shared(all, []string{"r2"}), 10), id(2))
	hits := search(t, s, unit(5), filter("private", "alice", all, []string{"r2"}), 10)
	wantIDs(t, "alice's private after move", hits, id(1))
	if hits[0].Key != "replaced" || !sameSet(hits[0].Agents, []string{"b"}) {
		t.Fatalf("hit is the old version: %+v", hits[0].Fragment)
	}
	// And to bob's private tier.
	moved.User = "bob"
	upsert(t, s, moved)
	wantIDs(t, "alice's private after second move", search(t, s, unit(5), filter("private", "alice", all, []string{"r2"}), 10))
	wantIDs(t, "bob's private after second move", search(t, s, unit(5), filter("private", "bob", all, []string{"r2"}), 10), id(1))
	got, err := s.Get(t.Context(), []string{id(1)})
	if err != nil || len(got) != 1 {
		t.Fatalf("Get = %v, %v", got, err)
	}
	if err := equalFragment(got[0], moved, true); err != nil {
		t.Fatalf("Get after replace: %v", err)
	}
}

func testDimension(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	good := frag(1, "shared", "u", []string{"a"}, nil, unit(0))
	bad := frag(2, "shared", "u", []string{"a"}, nil, make([]float32, dims+1))
	err := s.Upsert(t.Context(), []vectors.Fragment{good, bad})
	if !errors.Is(err, vectors.ErrDimension) {
		t.Fatalf("Upsert of a %d-d vector: err = %v, want ErrDimension", dims+1, err)
	}
	if n := count(t, s); n != 0 {
		t.Fatalf("a rejected batch stored %d fragments", n)
	}
	upsert(t, s, good)
	_, err = s.Search(t.Context(), make([]float32, dims-1), shared([]string{"a"}, nil), 5)
	if !errors.Is(err, vectors.ErrDimension) {
		t.Fatalf("Search with a %d-d vector: err = %v, want ErrDimension", dims-1, err)
	}
}
