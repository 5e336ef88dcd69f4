package app_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/vectors"
)

// These tests hold every use case that applies the read rule (access.Admits)
// to it: the memory view, the write check, the coordinator's history and
// delivery. Each must fail when the rule is removed (see the mutation test
// in package access).

var admin = domain.Identity{ID: app.AdminID, Admin: true}

// world: alice may invoke x and y, bob only y; x uses rx, y uses ry.
func world(t testing.TB, r *rig) {
	t.Helper()
	ctx := context.Background()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"alice", "bob"} {
		_, _, err := r.app.RegisterUser(ctx, admin, u, "user")
		must(nil, err)
	}
	for _, a := range []string{"x", "y"} {
		must(r.app.RegisterAgent(ctx, admin, a, "agent "+a, ""))
		must(r.app.RegisterResource(ctx, admin, "r"+a, "computation", "calc", nil))
		must(r.app.SetGrant(ctx, admin, app.Edge{From: a, To: "r" + a}, true))
	}
	for _, e := range [][2]string{{"alice", "x"}, {"alice", "y"}, {"bob", "y"}} {
		must(r.app.SetGrant(ctx, admin, app.Edge{UserAgent: true, From: e[0], To: e[1]}, true))
	}
}

// leakyStore answers every search, vector or hybrid, as if the caller
// could see everything, as a store whose filter is broken would.
type leakyStore struct{ vectors.Store }

func opened(f vectors.Filter) vectors.Filter {
	return vectors.Filter{Tier: f.Tier, User: f.User, AllowedAgents: []string{"x", "y"}, AllowedResources: []string{"rx", "ry"},
		ExcludedAgents: []string{}, ExcludedResources: []string{}}
}

func (s leakyStore) Search(ctx context.Context, vec []float32, f vectors.Filter, k int) ([]vectors.Hit, error) {
	return s.Store.Search(ctx, vec, opened(f), k)
}

func (s leakyStore) HybridSearch(ctx context.Context, q vectors.Query, f vectors.Filter, k int) ([]vectors.Hit, error) {
	return s.Store.(vectors.HybridSearcher).HybridSearch(ctx, q, opened(f), k)
}

func TestViewDropsInadmissibleHitsOfALeakyStore(t *testing.T) {
	r := newRig(t, nil, func(d *app.Deps) { d.Store = leakyStore{d.Store} })
	world(t, r)
	ctx := context.Background()
	if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Resources: []string{"rx"},
		Key: "salary", Value: "the CEO earns 9 million", Tier: events.TierShared}); err != nil {
		t.Fatal(err)
	}
	// "CEO" is only in the value: the hybrid view's lexical side finds it.
	for _, q := range []string{"salary", "what does the CEO earn"} {
		v, err := r.app.MemoryView(ctx, domain.Identity{ID: "bob"}, app.ViewRequest{Agent: "y", Query: q, KUser: 10, KCross: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Shared) != 0 {
			t.Fatalf("bob read alice's fragment through x's provenance (query %q): %+v", q, v.Shared)
		}
	}
	v, err := r.app.MemoryView(ctx, domain.Identity{ID: "alice"}, app.ViewRequest{Agent: "x", Query: "what does the CEO earn", KUser: 10, KCross: 10})
	if err != nil || len(v.Shared) != 1 {
		t.Fatalf("alice through x must read it: %+v %v", v, err)
	}
}

func TestWriteRefusesSourcesTheWriterCannotRead(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	w, err := r.app.WriteFragment(ctx, domain.Identity{ID: "alice"}, app.WriteRequest{Agent: "x", Resources: []string{"rx"},
		Key: "salary", Value: "9 million", Tier: events.TierShared})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.app.WriteFragment(ctx, domain.Identity{ID: "bob"}, app.WriteRequest{Agent: "y", Key: "copy", Value: "9 million",
		Tier: events.TierShared, DerivedFrom: []string{w.Fragments[0].ID}})
	if !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("bob derived from a fragment he cannot read: %v", err)
	}
}

// recordQuery appends a finished query of user whose steps and answer
// derive from label.
func recordQuery(t *testing.T, r *rig, id, user, text, answer string, label events.Label) {
	t.Helper()
	meta := events.Meta{Source: "t", Actor: user, CorrelationID: id}
	for _, p := range []events.Payload{
		&events.QuerySubmitted{ID: id, User: user, Text: text, Channel: "http"},
		&events.AgentSelected{QueryID: id, User: user, Round: 1, Agent: label.Agents[0], Subquery: text, Offered: label.Agents, Label: &events.Label{Agents: []string{}, Resources: []string{}}},
		&events.AgentResponded{QueryID: id, User: user, Round: 1, Agent: label.Agents[0], Subquery: text, Response: answer,
			Resources: label.Resources, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &label},
		&events.QueryAnswered{QueryID: id, User: user, Answer: answer, Rounds: 1, Agents: label.Agents, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &label},
	} {
		e, err := events.New(meta, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.log.Append(context.Background(), e, false); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDeliveryWithholdsWhatTheUserLost(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	recordQuery(t, r, "q1", "alice", "salary?", "9 million", events.Label{Agents: []string{"x"}, Resources: []string{"rx"}})
	ans, _, err := r.app.Query(ctx, domain.Identity{ID: "alice"}, "q1", 0)
	if err != nil || ans.Answer != "9 million" || ans.Withheld != "" {
		t.Fatalf("before the revoke: %+v %v", ans, err)
	}
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{From: "x", To: "rx"}, false); err != nil {
		t.Fatal(err)
	}
	ans, _, err = r.app.Query(ctx, domain.Identity{ID: "alice"}, "q1", 0)
	if err != nil || ans.Answer != "" || ans.Withheld == "" || ans.Steps[0].Response != "" || ans.Steps[0].Withheld == "" {
		t.Fatalf("after x lost rx the answer and its step must be withheld: %+v %v", ans, err)
	}
}

// coordSpy is a provider whose coordinator records what it is shown and
// stops. It reads history and reach, as a model may.
type coordSpy struct {
	llm.Provider
	seen []llm.CoordinateRequest
}

func (s *coordSpy) Coordinate(_ context.Context, req llm.CoordinateRequest) (llm.Decision, error) {
	s.seen = append(s.seen, req)
	return llm.Decision{Stop: true}, nil
}

func (*coordSpy) Capabilities() llm.Capabilities {
	return llm.Capabilities{ReadsReach: true, ReadsHistory: true}
}

func (s *coordSpy) last() llm.CoordinateRequest { return s.seen[len(s.seen)-1] }

func TestCoordinatorHistoryIsOnlyWhatTheUserMayStillSee(t *testing.T) {
	spy := &coordSpy{Provider: newOffline(t)}
	r := newRig(t, spy)
	world(t, r)
	ctx := context.Background()
	recordQuery(t, r, "old", "alice", "salary?", "9 million", events.Label{Agents: []string{"x"}, Resources: []string{"rx"}})
	p := r.pipeline(t, app.PipelineConfig{})
	ask := func(id string) []llm.HistoryItem {
		t.Helper()
		r.coordinate(t, p, id, "alice", "and now?")
		return spy.last().History
	}
	if h := ask("q2"); len(h) != 1 || h[0].Answer != "9 million" {
		t.Fatalf("the earlier answer must be shown while alice may see it: %+v", h)
	}
	if _, err := r.app.SetGrant(ctx, admin, app.Edge{UserAgent: true, From: "alice", To: "x"}, false); err != nil {
		t.Fatal(err)
	}
	for _, h := range ask("q3") {
		if h.Answer == "9 million" {
			t.Fatalf("history shows an answer derived from x after alice lost x: %+v", h)
		}
	}
}
