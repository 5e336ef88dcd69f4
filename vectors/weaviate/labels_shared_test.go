package weaviate

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// sharedWorld is one shared class: its config, the reference model, and
// fragment and filter makers over agents a, b and c.
type sharedWorld struct {
	cfg Config
	ref *vectorstest.Reference
	q   []float32
}

func newSharedWorld(t *testing.T) *sharedWorld {
	w := &sharedWorld{cfg: Config{Dims: 4, Class: weaviatetest.Class(t)}, ref: vectorstest.NewReference(), q: []float32{1, 0, 0, 0}}
	t.Cleanup(func() { // after every Store of the test is closed
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cfg := w.cfg
		cfg.URL, cfg.GRPCAddr = weaviatetest.Shared(t).URL, weaviatetest.Shared(t).GRPCAddr
		if s, err := Open(ctx, cfg); err == nil {
			_ = s.Drop(ctx)
		}
	})
	return w
}

func (w *sharedWorld) frag(n int, agents ...string) vectors.Fragment {
	return vectors.Fragment{ID: uuidN(n), Key: "k", Value: "v", Tier: "shared", User: "u", Agents: agents,
		Vector: []float32{1, float32(n) / 10, 0, 0}}
}

func (w *sharedWorld) filter(agents ...string) vectors.Filter {
	return vectors.NewFilter("shared", "u", agents, []string{"a", "b", "c"}, nil, nil)
}

// TestSharedLabelsAcrossProcesses: the holder of the lease labels a class
// another process searches; that process asks for its classes in the
// persisted registry, searches with the exclusion filter until the
// holder's pass calls them ready, then through their labels, exactly. A
// grant and a revoke are new classes: answered exactly at once, through
// the exclusion filter, then through their own labels. The holder's later
// writes are in the other process's labelled answers.
func TestSharedLabelsAcrossProcesses(t *testing.T) {
	w := newSharedWorld(t)
	holder, _ := openShared(t, w.cfg, true, 5*time.Second, 15*time.Second)
	reader, _ := openShared(t, w.cfg, false, 5*time.Second, 15*time.Second)
	upsertBoth(t, holder, w.ref, w.frag(1, "a"), w.frag(2, "a", "b"), w.frag(3, "b"), w.frag(4, "c"))

	fab := w.filter("a", "b")
	searchExact(t, reader, w.ref, w.q, fab, "before the class is ready")
	waitUsable(t, reader, fab)
	if holder.labels.passes.Load() == 0 {
		t.Fatal("the reader called a class ready that the holder never passed")
	}
	before := served(reader)
	searchExact(t, reader, w.ref, w.q, fab, "through the label")
	if served(reader)-before != 2 {
		t.Fatalf("%d of 2 searches went through the ready label", served(reader)-before)
	}
	upsertBoth(t, holder, w.ref, w.frag(5, "b"), w.frag(6, "c"))
	searchExact(t, reader, w.ref, w.q, fab, "the holder's later writes, through the label")

	// Asking again for a class the holder made ready (a process that
	// forgot it) creates nothing and turns no flag back.
	reader.labels.mu.RLock()
	c := reader.labels.classes[readerLabel(fab)]
	reader.labels.mu.RUnlock()
	if err := reader.ask(t.Context(), c); err != nil {
		t.Fatalf("asking for an existing class: %v", err)
	}
	es, err := reader.readRegistry(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.class.label == readerLabel(fab) && !e.ready {
			t.Fatal("asking again turned the holder's ready flag back")
		}
	}

	for what, f := range map[string]vectors.Filter{"revoke of b": w.filter("a"), "grant of c": w.filter("a", "b", "c")} {
		before := served(reader)
		searchExact(t, reader, w.ref, w.q, f, what+", at once")
		if served(reader) != before {
			t.Fatalf("%s: searched through a label before the holder passed it", what)
		}
		waitUsable(t, reader, f)
		searchExact(t, reader, w.ref, w.q, f, what+", through its label")
		if served(reader) == before {
			t.Fatalf("%s: never searched through its label", what)
		}
	}
}

// TestNewHolderLabelsWithItsPredecessorsClasses hands the lease to a
// process that has not read the persisted registry since a class became
// ready there: it must read it before its first write and label that
// write, or a third process searching through the ready label misses the
// new fragment. Without the read in lockLabels, it does.
func TestNewHolderLabelsWithItsPredecessorsClasses(t *testing.T) {
	w := newSharedWorld(t)
	first, firstLease := openShared(t, w.cfg, true, 5*time.Second, 15*time.Second)
	next, nextLease := openShared(t, w.cfg, false, 5*time.Second, 15*time.Second)
	next.stopMaterialiser() // it reads the registry only when it writes
	reader, _ := openShared(t, w.cfg, false, 5*time.Second, 15*time.Second)
	upsertBoth(t, first, w.ref, w.frag(1, "a"), w.frag(2, "b"))

	fa := w.filter("a")
	searchExact(t, reader, w.ref, w.q, fa, "before the class is ready")
	waitUsable(t, reader, fa)
	next.labels.mu.RLock()
	_, knows := next.labels.classes[readerLabel(fa)]
	next.labels.mu.RUnlock()
	if knows {
		t.Fatal("the next holder knew the class before it wrote: the test exercises nothing")
	}

	firstLease.held.Store(false)
	nextLease.held.Store(true)
	upsertBoth(t, next, w.ref, w.frag(3, "a"), w.frag(4, "a", "b"))
	before := served(reader)
	searchExact(t, reader, w.ref, w.q, fa, "the new holder's write, through the label")
	if served(reader)-before != 2 {
		t.Fatalf("%d of 2 searches went through the label", served(reader)-before)
	}
}

// TestStaleReadyFlagFallsBack: a process that stopped reading the
// persisted registry must stop trusting the ready flags it read once
// readyValid has passed. The holder evicts a class, stops labelling with
// it after its grace and writes a fragment of that class: the stale
// process must answer with it (through the exclusion filter). Without the
// freshness check in lookup, it searches through the label and misses it.
func TestStaleReadyFlagFallsBack(t *testing.T) {
	w := newSharedWorld(t)
	w.cfg.MaxReaderClasses = 1
	const valid, grace = 300 * time.Millisecond, time.Second
	holder, _ := openShared(t, w.cfg, true, valid, grace)
	stale, _ := openShared(t, w.cfg, false, valid, grace)
	upsertBoth(t, holder, w.ref, w.frag(1, "a"), w.frag(2, "b"))

	fa, fb := w.filter("a"), w.filter("b")
	searchExact(t, stale, w.ref, w.q, fa, "before the class is ready")
	waitUsable(t, stale, fa)
	stale.stopMaterialiser() // from now on its flags only age

	searchExact(t, holder, w.ref, w.q, fb, "another class, evicting the first beyond MaxReaderClasses")
	waitFor(t, 2*time.Minute, "the holder to drop the evicted class after its grace", func() bool {
		holder.labels.mu.RLock()
		defer holder.labels.mu.RUnlock()
		_, kept := holder.labels.classes[readerLabel(fa)]
		return !kept
	})
	upsertBoth(t, holder, w.ref, w.frag(3, "a")) // without the evicted class's label
	before := served(stale)
	searchExact(t, stale, w.ref, w.q, fa, "with a stale ready flag")
	if served(stale) != before {
		t.Fatal("searched through a label whose ready flag is stale")
	}
}

// TestEvictedClassKeepsItsLabelsForItsGrace: a process that read a class
// ready may search through its label for readyValid after that read, so
// the holder that evicts the class keeps labelling with it for its grace.
// The other process stops reading the registry right after it saw the
// class ready; the holder evicts the class and writes a fragment of it;
// the other process, its flag still fresh, must find that fragment
// through the label. Without the grace (the class dropped and its labels
// stripped at once), it does not.
func TestEvictedClassKeepsItsLabelsForItsGrace(t *testing.T) {
	w := newSharedWorld(t)
	w.cfg.MaxReaderClasses = 1
	const valid, grace = 20 * time.Second, 40 * time.Second
	holder, _ := openShared(t, w.cfg, true, valid, grace)
	other, _ := openShared(t, w.cfg, false, valid, grace)
	upsertBoth(t, holder, w.ref, w.frag(1, "a"), w.frag(2, "b"))

	fa, fb := w.filter("a"), w.filter("b")
	searchExact(t, other, w.ref, w.q, fa, "before the class is ready")
	waitUsable(t, other, fa)
	other.stopMaterialiser() // its flags are fresh for valid from here

	searchExact(t, holder, w.ref, w.q, fb, "another class, evicting the first beyond MaxReaderClasses")
	waitFor(t, 2*time.Minute, "the holder to evict the first class", func() bool {
		holder.labels.mu.RLock()
		defer holder.labels.mu.RUnlock()
		c := holder.labels.classes[readerLabel(fa)]
		return c == nil || !c.leaving.IsZero()
	})
	upsertBoth(t, holder, w.ref, w.frag(3, "a"))
	before := served(other)
	searchExact(t, other, w.ref, w.q, fa, "within the grace, through the label")
	if served(other)-before != 2 {
		t.Fatalf("%d of 2 searches went through the label: the flag aged before the test asked", served(other)-before)
	}
}
