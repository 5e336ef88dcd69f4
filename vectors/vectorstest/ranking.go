package vectorstest

import (
	"math"
	"sync"
	"testing"

	"github.com/cmem/cmem/vectors"
)

func testRanking(t *testing.T, newStore NewStore) {
	const d = 16
	s := newStore(t, d)
	g := NewGen(7, d, Mix{Agents: 1, Resources: 1, Users: 1, MaxAgents: 1, MaxResources: 0})
	fs := g.Fragments(60)
	for i := range fs {
		fs[i].Tier = "shared"
	}
	upsert(t, s, fs...)
	ref := NewReference()
	ref.Upsert(fs)
	f := vectors.NewFilter("shared", "", g.Agents, g.Agents, nil, nil)
	for _, target := range []int{0, 17, 59} {
		q := make([]float32, d)
		for i, x := range fs[target].Vector {
			q[i] = 3*x + 0.05*float32(g.rng.NormFloat64()) // scaled: cosine ignores length
		}
		hits := search(t, s, q, f, 10)
		if len(hits) != 10 {
			t.Fatalf("got %d hits, want 10", len(hits))
		}
		if hits[0].ID != fs[target].ID {
			t.Fatalf("nearest neighbour of fragment %d: got %s, want %s", target, hits[0].ID, fs[target].ID)
		}
		want := ref.Search(q, f, 10)
		for i, h := range hits {
			if i > 0 && h.Score > hits[i-1].Score {
				t.Fatalf("hits not best first at %d: %v > %v", i, h.Score, hits[i-1].Score)
			}
			if exact := Cosine(q, mustFragment(t, ref, h.ID).Vector); math.Abs(float64(h.Score)-exact) > 1e-4 {
				t.Fatalf("hit %d score %v, cosine is %v", i, h.Score, exact)
			}
		}
		if r := Recall(hits, want); r < 0.9 {
			t.Fatalf("recall@10 = %v on 60 fragments", r)
		}
	}
}

func mustFragment(t *testing.T, ref *Reference, id string) vectors.Fragment {
	t.Helper()
	f, ok := ref.Fragment(id)
	if !ok {
		t.Fatalf("store returned an id it was never given: %s", id)
	}
	return f
}

func testTies(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	// Six equal vectors, inserted in scrambled order, and one slightly off.
	for _, n := range []int{5, 2, 6, 1, 4, 3} {
		upsert(t, s, frag(n, "shared", "u", []string{"a"}, nil, unit(2)))
	}
	near := unit(2)
	near[3] = 0.5
	upsert(t, s, frag(7, "shared", "u", []string{"a"}, nil, near))
	f := filter("shared", "u", []string{"a"}, nil)
	wantIDs(t, "k=3 among six ties", search(t, s, unit(2), f, 3), id(1), id(2), id(3))
	wantIDs(t, "k=7", search(t, s, unit(2), f, 7), id(1), id(2), id(3), id(4), id(5), id(6), id(7))
}

func testKLimits(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	for n := 1; n <= 12; n++ {
		v := unit(0)
		v[1] = float32(n) / 10 // decreasing similarity to unit(0) as n grows
		upsert(t, s, frag(n, "shared", "u", []string{"a"}, nil, v))
	}
	f := filter("shared", "u", []string{"a"}, nil)
	for _, k := range []int{0, 1, 5, 12, 50} {
		hits := search(t, s, unit(0), f, k)
		if want := min(k, 12); len(hits) != want {
			t.Fatalf("k=%d: got %d hits, want %d", k, len(hits), want)
		}
		for i, h := range hits {
			if h.ID != id(i+1) {
				t.Fatalf("k=%d: hit %d is %s, want %s", k, i, h.ID, id(i+1))
			}
		}
	}
}

func testReset(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s, frag(1, "shared", "u", []string{"a"}, nil, unit(0)), frag(2, "private", "u", []string{"b"}, nil, unit(0)))
	if err := s.Reset(t.Context()); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	if n := count(t, s); n != 0 {
		t.Fatalf("Count after Reset = %d", n)
	}
	all := []string{"a", "b", "c"}
	wantIDs(t, "after reset", search(t, s, unit(0), filter("shared", "u", all, nil), 10))
	if got, err := s.Get(t.Context(), []string{id(1)}); err != nil || len(got) != 0 {
		t.Fatalf("Get after Reset = %v, %v", got, err)
	}
	upsert(t, s, frag(1, "shared", "u", []string{"c"}, nil, unit(0)))
	wantIDs(t, "rebuilt", search(t, s, unit(0), filter("shared", "u", all, nil), 10), id(1))
}

// testConcurrent runs writers and readers together; under -race it also
// checks the locking.
func testConcurrent(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	const writers, batches, per = 3, 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*batches+writers)
	for w := range writers {
		wg.Go(func() {
			for b := range batches {
				var fs []vectors.Fragment
				for i := range per {
					n := 1 + w*batches*per + b*per + i
					fs = append(fs, frag(n, "shared", "u", []string{"a"}, nil, unit(n)))
				}
				if err := s.Upsert(t.Context(), fs); err != nil {
					errs <- err
				}
			}
		})
		wg.Go(func() {
			for range batches {
				if _, err := s.Search(t.Context(), unit(w), filter("shared", "u", []string{"a"}, nil), 5); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n, want := count(t, s), writers*batches*per; n != want {
		t.Fatalf("Count = %d, want %d", n, want)
	}
	hits := search(t, s, unit(0), filter("shared", "u", []string{"a"}, nil), 100)
	if len(hits) != writers*batches*per {
		t.Fatalf("search found %d of %d fragments", len(hits), writers*batches*per)
	}
}

// testDelete: deleted fragments leave Get, Count and every search; the
// others stay; unknown ids are ignored.
func testDelete(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s, frag(1, "shared", "u1", []string{"a"}, nil, unit(0)),
		frag(2, "shared", "u1", []string{"a"}, nil, unit(0)),
		frag(3, "private", "u1", []string{"a"}, nil, unit(0)))
	if err := s.Delete(t.Context(), []string{id(1), id(3), id(99), "not-a-uuid"}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if n := count(t, s); n != 1 {
		t.Fatalf("count after delete = %d, want 1", n)
	}
	got, err := s.Get(t.Context(), []string{id(1), id(2), id(3)})
	if err != nil || len(got) != 1 || got[0].ID != id(2) {
		t.Fatalf("Get after delete = %v, %v; want only %s", got, err, id(2))
	}
	wantIDs(t, "shared after delete", search(t, s, unit(0), filter("shared", "u1", []string{"a"}, nil), 10), id(2))
	wantIDs(t, "private after delete", search(t, s, unit(0), filter("private", "u1", []string{"a"}, nil), 10))
}
