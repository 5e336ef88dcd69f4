package weaviate

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// TestReaderLabelsRace races materialisation passes against concurrent
// upserts, deletes and permission changes (each a new reader class that
// registers and materialises while the writes go on), with readers
// searching (Search and HybridSearch) throughout. No hit may ever be
// outside what the search's filter reads, or a version superseded before
// the search began; once the race settles, every reader's answer is
// exactly the reference model's, through the fallback and then through
// its label.
func TestReaderLabelsRace(t *testing.T) {
	const seed, d = 20251129, 16
	t.Logf("seed %d", seed)
	g := vectorstest.NewGen(seed, d, vectorstest.SmallMix)
	s := open(t, Config{Dims: d})
	ctx := t.Context()
	ref := vectorstest.NewReference()
	h := &history{byID: map[string][]*version{}}
	write := func(o op) error {
		h.mu.Lock()
		var vs []*version
		for _, f := range o.upsert {
			vs = append(vs, &version{frag: f})
		}
		for _, id := range o.delete {
			vs = append(vs, &version{frag: vectors.Fragment{ID: id}, deleted: true})
		}
		for _, v := range vs {
			h.byID[v.frag.ID] = append(h.byID[v.frag.ID], v)
		}
		h.mu.Unlock()
		var err error
		if o.upsert != nil {
			err = s.Upsert(ctx, o.upsert)
			ref.Upsert(o.upsert)
		} else {
			err = s.Delete(ctx, o.delete)
			ref.Delete(o.delete)
		}
		tick := h.clock.Add(1)
		h.mu.Lock()
		for _, v := range vs {
			v.done = tick
		}
		h.mu.Unlock()
		return err
	}

	// Everything random is drawn here: the generator is not shared.
	first := g.Fragments(200)
	g.WithText(first)
	live := slices.Collect(func(yield func(string) bool) {
		for _, f := range first {
			if !yield(f.ID) {
				return
			}
		}
	})
	var ops []op
	for i := range 40 {
		if i%5 == 4 {
			var del []string
			for range 5 {
				del = append(del, live[g.IntN(len(live))])
			}
			ops = append(ops, op{delete: del})
			continue
		}
		fs := g.Fragments(10)
		for range 10 { // replacements move fragments between tiers, users and provenance
			f := g.Fragment()
			f.ID = live[g.IntN(len(live))]
			fs = append(fs, f)
		}
		g.WithText(fs)
		fs = vectorstest.LastByID(fs)
		for _, f := range fs {
			if !slices.Contains(live, f.ID) {
				live = append(live, f.ID)
			}
		}
		ops = append(ops, op{upsert: fs})
	}
	readers := make([]atomic.Pointer[vectors.Filter], 6)
	for i := range readers {
		f := g.Filter([]float64{0.5, 0.7, 0.9}[i%3])
		readers[i].Store(&f)
	}
	// A permission change every third write: a revoke or a grant of one
	// agent, which is a new reader class (or one still registered).
	var changes []vectors.Filter
	cur := make([]vectors.Filter, len(readers))
	for i := range readers {
		cur[i] = *readers[i].Load()
	}
	// The last dozen writes come after the last change: nothing but
	// their upsert labels them for the classes ready by then.
	for n := range len(ops)/3 - 4 {
		f := cur[n%len(cur)]
		agents := slices.Clone(f.AllowedAgents)
		if a := g.Agents[g.IntN(len(g.Agents))]; slices.Contains(agents, a) {
			agents = slices.DeleteFunc(agents, func(x string) bool { return x == a })
		} else {
			agents = append(agents, a)
		}
		f = vectors.NewFilter(f.Tier, f.User, agents, g.Agents, f.AllowedResources, g.Resources)
		cur[n%len(cur)] = f
		changes = append(changes, f)
	}
	queries := make([]vectors.Query, 64)
	for i := range queries {
		queries[i] = vectors.Query{Text: g.Text(1 + g.IntN(3)), Vector: g.Vector()}
	}

	if err := write(op{upsert: first}); err != nil {
		t.Fatal(err)
	}
	for i := range readers {
		f := *readers[i].Load()
		searchExact(t, s, ref, queries[0].Vector, f, fmt.Sprintf("reader %d before the race", i))
		waitReady(t, s, f, time.Minute)
	}

	// Small pages, so that the writes land between the pages of a pass:
	// after each permission change, the writer waits until a pass with
	// the new class has begun, and goes on writing while it runs. The
	// passes record which classes they began with; the writer waits on
	// that condition (its search woke the materialiser), not on a
	// signal it could miss, nor on how fast the machine is.
	begun := &passLog{labels: map[string]bool{}, changed: make(chan struct{})}
	s.labels.mu.Lock()
	s.labels.page = 16
	s.labels.beforePass = begun.record
	s.labels.mu.Unlock()
	passes, served := s.labels.passes.Load(), s.labels.searches.Load()
	stop := make(chan struct{})
	var writes, reads sync.WaitGroup
	writes.Add(1)
	go func() { // the writer, and the permission changes
		defer writes.Done()
		for i, o := range ops {
			if err := write(o); err != nil {
				t.Errorf("write %d: %v", i, err)
				return
			}
			if n := i / 3; i%3 != 2 || n >= len(changes) {
				continue
			}
			n := i / 3
			f := changes[n]
			readers[n%len(readers)].Store(&f)
			if _, err := s.Search(ctx, queries[n%len(queries)].Vector, f, 5); err != nil { // registers its class
				t.Errorf("search after change %d: %v", n, err)
				return
			}
			if err := begun.wait(s, readerLabel(f), 2*time.Minute); err != nil {
				t.Errorf("change %d: %v", n, err)
				return
			}
		}
	}()
	var searches atomic.Int64
	for w := range 2 {
		reads.Add(1)
		go func() { // a reader
			defer reads.Done()
			for i := w; ; i += 2 {
				select {
				case <-stop:
					return
				default:
				}
				f := *readers[i%len(readers)].Load()
				q := queries[i%len(queries)]
				t0 := h.clock.Load()
				var hits []vectors.Hit
				var err error
				if i%4 < 2 {
					hits, err = s.Search(ctx, q.Vector, f, 10)
				} else {
					hits, err = s.HybridSearch(ctx, q, f, 10)
				}
				if err != nil {
					t.Errorf("search %d: %v", i, err)
					return
				}
				searches.Add(1)
				for _, hit := range hits {
					if err := h.check(hit, f, t0); err != nil {
						t.Errorf("search %d (hybrid %v): %v", i, i%4 >= 2, err)
						return
					}
				}
			}
		}()
	}
	// The writes end on their own; the readers when told.
	writes.Wait()
	close(stop)
	reads.Wait()
	if t.Failed() {
		return
	}
	racedPasses, racedLabels := s.labels.passes.Load()-passes, s.labels.searches.Load()-served
	t.Logf("%d searches during the race, %d through labels; %d materialisation passes", searches.Load(), racedLabels, racedPasses)
	if racedPasses == 0 || racedLabels == 0 {
		t.Fatal("no materialisation pass or no labelled search during the race: it raced nothing")
	}

	excl := &Store{cfg: s.cfg, client: s.client, search: s.search} // the exclusion filter on the same class
	for i := range readers {
		f := *readers[i].Load()
		what := fmt.Sprintf("reader %d after the race", i)
		searchExact(t, s, ref, queries[i].Vector, f, what)
		waitReady(t, s, f, time.Minute)
		before := s.labels.searches.Load()
		searchExact(t, s, ref, queries[i].Vector, f, what+", through its label")
		hybridExact(t, s, excl, ref, queries[i], f, what+", through its label")
		if s.labels.searches.Load()-before != 4 {
			t.Fatalf("%s: %d of 4 searches went through the ready label", what, s.labels.searches.Load()-before)
		}
	}
}
