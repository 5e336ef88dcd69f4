package weaviate

import (
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// TestReaderLabelsSurviveRestart closes a store whose classes are ready
// (and one whose pass the close cuts short) and opens the class again:
// the restarted store searches the ready classes through their labels
// from its first query, exactly, and materialises the unfinished one.
// Then a store without labels writes, and the next restart must not
// trust the registry: without forgetRegistry it would search through a
// label the unlabelled write lacks, and miss that fragment.
func TestReaderLabelsSurviveRestart(t *testing.T) {
	cfg := Config{Dims: 4, Class: weaviatetest.Class(t)}
	ref := vectorstest.NewReference()
	frag := func(n int, agents ...string) vectors.Fragment {
		return vectors.Fragment{ID: uuidN(n), Key: "k", Value: "v", Tier: "shared", User: "u", Agents: agents,
			Vector: []float32{1, float32(n) / 10, 0, 0}}
	}
	filter := func(agents ...string) vectors.Filter {
		return vectors.NewFilter("shared", "u", agents, []string{"a", "b", "c"}, nil, nil)
	}
	q := []float32{1, 0, 0, 0}
	fa, fab, fac := filter("a"), filter("a", "b"), filter("a", "c")

	a := openKept(t, cfg)
	upsertBoth(t, a, ref, frag(1, "a"), frag(2, "a", "b"), frag(3, "b"))
	for _, f := range []vectors.Filter{fa, fab} {
		searchExact(t, a, ref, q, f, "before the restart")
		waitReady(t, a, f, time.Minute)
	}
	upsertBoth(t, a, ref, frag(4, "a"), frag(5, "c")) // labelled by their upsert
	// A third class registers; the restart cuts its pass short.
	entered, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	a.labels.mu.Lock()
	a.labels.beforePass = func([]string) { once.Do(func() { close(entered) }); <-gate }
	a.labels.mu.Unlock()
	searchExact(t, a, ref, q, fac, "third class, before the restart")
	select {
	case <-entered:
	case <-time.After(time.Minute):
		t.Fatal("the third class's pass never began")
	}
	a.labels.stop() // the pass fails on its cancelled context
	close(gate)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := openKept(t, cfg)
	served := b.labels.searches.Load()
	searchExact(t, b, ref, q, fa, "after the restart")
	searchExact(t, b, ref, q, fab, "after the restart")
	if n := b.labels.searches.Load() - served; n != 4 {
		t.Fatalf("%d of the restarted store's first 4 searches went through the persisted labels", n)
	}
	searchExact(t, b, ref, q, fac, "unfinished class, after the restart")
	waitReady(t, b, fac, time.Minute)
	served = b.labels.searches.Load()
	searchExact(t, b, ref, q, fac, "unfinished class, materialised after the restart")
	if b.labels.searches.Load() == served {
		t.Fatal("the unfinished class was not searched through its label once materialised")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	off := cfg
	off.ExclusionFilter = true
	c := openKept(t, off)
	upsertBoth(t, c, ref, frag(6, "a"))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	d := open(t, cfg)
	d.labels.mu.RLock()
	_, kept := d.labels.classes[readerLabel(fa)]
	d.labels.mu.RUnlock()
	if kept {
		t.Error("the registry survived a write without labels")
	}
	searchExact(t, d, ref, q, fa, "after a write without labels")
}

// TestReaderLabelEvictionSurvivesRestart evicts a ready class (beyond
// MaxReaderClasses), writes a fragment it would read, which no longer
// gets its label, and restarts: the restarted store must not call the
// evicted class ready, or its label would miss that fragment. Without
// forgetClasses in evict, it does.
func TestReaderLabelEvictionSurvivesRestart(t *testing.T) {
	cfg := Config{Dims: 4, Class: weaviatetest.Class(t), MaxReaderClasses: 1}
	ref := vectorstest.NewReference()
	frag := func(n int, agents ...string) vectors.Fragment {
		return vectors.Fragment{ID: uuidN(n), Key: "k", Value: "v", Tier: "shared", User: "u", Agents: agents,
			Vector: []float32{1, float32(n) / 10, 0, 0}}
	}
	fa := vectors.NewFilter("shared", "u", []string{"a"}, []string{"a", "b"}, nil, nil)
	fb := vectors.NewFilter("shared", "u", []string{"b"}, []string{"a", "b"}, nil, nil)
	q := []float32{1, 0, 0, 0}
	a := openKept(t, cfg)
	upsertBoth(t, a, ref, frag(1, "a"), frag(2, "b"))
	searchExact(t, a, ref, q, fa, "first class")
	waitReady(t, a, fa, time.Minute)
	searchExact(t, a, ref, q, fb, "second class, evicting the first")
	waitReady(t, a, fb, time.Minute) // its pass runs after the eviction
	a.labels.mu.RLock()
	_, kept := a.labels.classes[readerLabel(fa)]
	a.labels.mu.RUnlock()
	if kept {
		t.Fatal("the least recently used class was not evicted beyond MaxReaderClasses")
	}
	upsertBoth(t, a, ref, frag(3, "a")) // without the evicted class's label
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b := open(t, cfg)
	searchExact(t, b, ref, q, fa, "evicted class, after the restart")
}
