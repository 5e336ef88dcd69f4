package weaviate

import (
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
)

// TestReaderLabelForgedIsRejected puts a ready class's label on a
// fragment the class may not read, as another writer or a bug could: the
// check in Go must drop it and send both Search and HybridSearch back to
// the exclusion filter, which answers exactly. Without the check (in
// throughLabel), both searches return the forged fragment.
func TestReaderLabelForgedIsRejected(t *testing.T) {
	s := open(t, Config{Dims: 4})
	ctx := t.Context()
	mine := vectors.Fragment{ID: uuidN(1), Key: "k", Value: "alpha note", Tier: "shared", Agents: []string{"a"}, Vector: []float32{1, 0.1, 0, 0}}
	theirs := vectors.Fragment{ID: uuidN(2), Key: "k", Value: "alpha secret", Tier: "shared", Agents: []string{"b"}, Vector: []float32{1, 0, 0, 0}}
	if err := s.Upsert(ctx, []vectors.Fragment{mine, theirs}); err != nil {
		t.Fatal(err)
	}
	f := vectors.NewFilter("shared", "u", []string{"a"}, []string{"a", "b"}, nil, nil)
	q := vectors.Query{Text: "alpha", Vector: []float32{1, 0, 0, 0}}
	if _, err := s.Search(ctx, q.Vector, f, 5); err != nil {
		t.Fatal(err)
	}
	waitReady(t, s, f, time.Minute)
	served := s.labels.searches.Load()
	if hits, err := s.Search(ctx, q.Vector, f, 5); err != nil || !slices.Equal(hitIDs(hits), []string{mine.ID}) {
		t.Fatalf("before the forgery: %v, %v", hitIDs(hits), err)
	}
	if s.labels.searches.Load() == served {
		t.Fatal("the ready class was not searched through its label: the test exercises nothing")
	}
	if err := s.patchReaders(ctx, theirs.ID, []string{readerLabel(f)}); err != nil {
		t.Fatal(err)
	}
	served = s.labels.searches.Load()
	hits, err := s.Search(ctx, q.Vector, f, 5)
	if err != nil || !slices.Equal(hitIDs(hits), []string{mine.ID}) {
		t.Fatalf("Search with a forged label: %v, %v; want only %s", hitIDs(hits), err, mine.ID)
	}
	hits, err = s.HybridSearch(ctx, q, f, 5)
	if err != nil || !slices.Equal(hitIDs(hits), []string{mine.ID}) {
		t.Fatalf("HybridSearch with a forged label: %v, %v; want only %s", hitIDs(hits), err, mine.ID)
	}
	if n := s.labels.searches.Load() - served; n != 0 {
		t.Fatalf("%d searches with a forged label were served through it", n)
	}
}
