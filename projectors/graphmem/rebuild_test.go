package graphmem_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/graphmem"
)

// shredded is r as a sealed log opens it once the keys of the erased
// queries are gone: every content field reads events.Erased.
func shredded(t *testing.T, r events.Record, erased map[string]bool) events.Record {
	t.Helper()
	p, err := r.Decode()
	if err != nil {
		t.Fatal(err)
	}
	switch p := p.(type) {
	case *events.QuerySubmitted:
		if !erased[p.ID] {
			return r
		}
		p.Text = events.Erased
	case *events.AgentSelected:
		if !erased[p.QueryID] {
			return r
		}
		p.Subquery = events.Erased
	case *events.AgentResponded:
		if !erased[p.QueryID] {
			return r
		}
		p.Subquery, p.Response = events.Erased, events.Erased
	default:
		return r
	}
	e, err := events.New(events.Meta{Source: r.Source, Actor: r.Actor, Time: r.Time}, p)
	if err != nil {
		t.Fatal(err)
	}
	return events.Record{Envelope: e, Revision: r.Revision}
}

// TestRebuiltFromTheLogEqualsLive replays a random history (queries,
// grants, revokes, erasures) into a fresh projection, with the erased
// queries' content unreadable as crypto-shredding leaves it, and requires
// the same state as the projection that followed it live: nodes,
// embeddings, utterances, edges, insights.
func TestRebuiltFromTheLogEqualsLive(t *testing.T) {
	for seed := range uint64(3) {
		w := newWorld(t, 100+seed)
		for range 200 {
			switch x := w.rng.IntN(10); {
			case x < 5:
				w.query()
			case x < 9:
				w.toggle()
			default:
				w.erase()
			}
		}
		erased := map[string]bool{}
		for _, q := range w.ref.queries {
			erased[q.id] = q.erased
		}
		fresh, err := graphmem.New(graphmem.Config{K: 2, M: 2, EdgeThreshold: 0.5, MaxQueries: 1000, MaxInsights: 1000, MaxInteractions: 1000}, hashing.New(64))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range w.log {
			if err := fresh.Apply(shredded(t, r, erased)); err != nil {
				t.Fatal(err)
			}
			if i%50 == 49 { // batches of another size than live
				if err := fresh.Flush(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := fresh.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		live, rebuilt := w.mem.State(), fresh.State()
		if len(live.Users) == 0 {
			t.Fatal("the history left no graph to compare")
		}
		if !reflect.DeepEqual(live, rebuilt) {
			t.Fatalf("seed %d: rebuilt state differs from live:\n live    %+v\n rebuilt %+v", seed, live, rebuilt)
		}
		for u, us := range rebuilt.Users {
			for _, q := range us.Queries {
				if erased[q.ID] || q.Text == events.Erased {
					t.Fatalf("user %s: erased query %s is in the rebuilt graph", u, q.ID)
				}
			}
		}
	}
}
