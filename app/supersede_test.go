package app_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

var (
	alice = domain.Identity{ID: "alice"}
	bob   = domain.Identity{ID: "bob"}
	may1  = time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	aug1  = time.Date(2023, 8, 1, 0, 0, 0, 0, time.UTC)
)

// writeFact writes a shared fragment of by through agent and returns it.
func writeFact(t *testing.T, r *rig, by domain.Identity, agent, key, value string, observed time.Time) domain.Fragment {
	t.Helper()
	w, err := r.app.WriteFragment(context.Background(), by, app.WriteRequest{Agent: agent, Key: key, Value: value,
		Tier: events.TierShared, ObservedAt: observed})
	if err != nil {
		t.Fatal(err)
	}
	return w.Fragments[0]
}

// shared is what by sees of the shared tier through agent at asOf.
func shared(t *testing.T, r *rig, by domain.Identity, agent, query string, asOf *time.Time) []string {
	t.Helper()
	min := float32(-1)
	v, err := r.app.MemoryView(context.Background(), by, app.ViewRequest{Agent: agent, Query: query, KUser: 10, KCross: 10,
		MinScore: &min, AsOf: asOf})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range v.Shared {
		out = append(out, f.Value)
	}
	return out
}

// history is by's history of id through agent y.
func history(t *testing.T, r *rig, by domain.Identity, id string) (domain.History, error) {
	t.Helper()
	return r.app.FragmentHistory(context.Background(), by, app.HistoryRequest{Agent: "y", ID: id})
}

func values(h domain.History) []string {
	var out []string
	for _, v := range h.Versions {
		out = append(out, v.Value)
	}
	return out
}

// A newer value of the same subject and attribute supersedes the old one:
// views show the current one, as_of the one valid then, and the history
// both, with when the first stopped being current.
func TestSupersessionCurrentAsOfAndHistory(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	old := writeFact(t, r, alice, "y", "Lumen cooperative revenue", "41 million credits", may1)
	other := writeFact(t, r, alice, "y", "Lumen bakery revenue", "3 million credits", may1)
	cur := writeFact(t, r, bob, "y", "lumen cooperative REVENUE", "45 million credits", aug1)
	if cur.Supersedes != old.ID || other.Supersedes != "" {
		t.Fatalf("supersedes %q and %q, want %s and none", cur.Supersedes, other.Supersedes, old.ID)
	}
	if got := shared(t, r, bob, "y", "Lumen cooperative revenue", nil); !slices.Equal(got, []string{"45 million credits", "3 million credits"}) {
		t.Errorf("current view %v", got)
	}
	june := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)
	if got := shared(t, r, bob, "y", "Lumen cooperative revenue", &june); !slices.Equal(got, []string{"41 million credits", "3 million credits"}) {
		t.Errorf("view as of June %v", got)
	}
	april := time.Date(2023, 4, 1, 0, 0, 0, 0, time.UTC)
	if got := shared(t, r, bob, "y", "Lumen cooperative revenue", &april); len(got) != 0 {
		t.Errorf("view as of April, before anything was observed: %v", got)
	}
	h, err := history(t, r, alice, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(values(h), []string{"41 million credits", "45 million credits"}) || h.Current != cur.ID ||
		h.Versions[0].ValidUntil == nil || !h.Versions[0].ValidUntil.Equal(aug1) || h.Versions[1].ValidUntil != nil {
		t.Errorf("history %+v", h)
	}
	// An older observation written late is a version too, not the current.
	late := writeFact(t, r, alice, "y", "Lumen cooperative revenue", "43 million credits", june)
	if late.Supersedes != cur.ID {
		t.Errorf("late write supersedes %q, want the writer's current %s", late.Supersedes, cur.ID)
	}
	if got := shared(t, r, bob, "y", "Lumen cooperative revenue", nil); got[0] != "45 million credits" {
		t.Errorf("after a late older observation the view shows %v", got)
	}
	if h, _ = history(t, r, bob, cur.ID); !slices.Equal(values(h), []string{"41 million credits", "43 million credits", "45 million credits"}) {
		t.Errorf("history in observed order: %v", values(h))
	}
}

// Supersession never crosses the read rule, in either direction: a reader
// who may read the new version but not the old one sees no trace of the
// old one (view, history, 404 on its id); a reader who may read the old one
// but not the new one keeps the old one as current and is not told a newer
// version exists.
func TestSupersessionHidesNothingAcrossTheReadRule(t *testing.T) {
	r := newRig(t, nil)
	world(t, r) // alice invokes x and y, bob only y
	// Old through x (bob cannot read it); alice can read it through y, so
	// her write through y supersedes it, and bob can read that one.
	old := writeFact(t, r, alice, "x", "Lumen cooperative revenue", "41 million credits", may1)
	cur := writeFact(t, r, alice, "y", "Lumen cooperative revenue", "45 million credits", aug1)
	if cur.Supersedes != old.ID {
		t.Fatalf("supersedes %q, want %s", cur.Supersedes, old.ID)
	}
	h, err := history(t, r, bob, cur.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(values(h), []string{"45 million credits"}) || h.Current != cur.ID || h.Versions[0].ValidUntil != nil {
		t.Errorf("bob's history of the new version shows the old one: %+v", h)
	}
	_, errOld := history(t, r, bob, old.ID)
	_, errNone := history(t, r, bob, "no-such-fragment")
	if !errors.Is(errOld, domain.ErrNotFound) || !errors.Is(errNone, domain.ErrNotFound) ||
		errOld.Error() != "not found: fragment "+old.ID || errNone.Error() != "not found: fragment no-such-fragment" {
		t.Errorf("bob asking for the old version: %v; for nothing: %v (must read alike)", errOld, errNone)
	}
	// The other direction: carol's fact through y, then alice's newer one
	// through x with a resource bob's agent cannot use.
	prev := writeFact(t, r, alice, "y", "Lyon famous food", "bouchons", may1)
	next, err := r.app.WriteFragment(context.Background(), alice, app.WriteRequest{Agent: "x", Resources: []string{"rx"},
		Key: "Lyon famous food", Value: "quenelles", Tier: events.TierShared, ObservedAt: aug1})
	if err != nil || next.Fragments[0].Supersedes != prev.ID {
		t.Fatalf("write through x: %+v %v", next, err)
	}
	if got := shared(t, r, bob, "y", "Lyon famous food", nil); !slices.Contains(got, "bouchons") || slices.Contains(got, "quenelles") {
		t.Errorf("bob cannot read the new version, so the old one stays current for him; he sees %v", got)
	}
	if h, err = history(t, r, bob, prev.ID); err != nil || !slices.Equal(values(h), []string{"bouchons"}) || h.Current != prev.ID ||
		h.Versions[0].ValidUntil != nil {
		t.Errorf("bob's history of the old version tells of the new one: %+v %v", h, err)
	}
	if got := shared(t, r, alice, "x", "Lyon famous food", nil); !slices.Contains(got, "quenelles") || slices.Contains(got, "bouchons") {
		t.Errorf("alice through x sees %v, want only the current version", got)
	}
}

// A private fact is versioned only by its owner, and the same key in the
// other tier is another fact.
func TestPrivateFactsAreTheirOwners(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	w := func(by domain.Identity, tier string) domain.Fragment {
		t.Helper()
		a, err := r.app.WriteFragment(ctx, by, app.WriteRequest{Agent: "y", Key: "favourite food", Value: by.ID + " " + tier, Tier: tier})
		if err != nil {
			t.Fatal(err)
		}
		return a.Fragments[0]
	}
	w(alice, events.TierPrivate)
	if f := w(bob, events.TierPrivate); f.Supersedes != "" {
		t.Errorf("bob's private fragment superseded alice's %s", f.Supersedes)
	}
	if f := w(alice, events.TierShared); f.Supersedes != "" {
		t.Errorf("a shared fragment superseded a private one: %s", f.Supersedes)
	}
	if f := w(alice, events.TierPrivate); f.Supersedes == "" {
		t.Error("alice's second private value of the same key superseded nothing")
	}
}

// Deleting a fact's current version deletes the owner's earlier versions
// with it (their content too); another user's version becomes current
// again.
func TestDeletingAFactDeletesItsHistory(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	ctx := context.Background()
	bobs := writeFact(t, r, bob, "y", "Lumen revenue", "40 million", may1)
	first := writeFact(t, r, alice, "y", "Lumen revenue", "41 million", time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC))
	last := writeFact(t, r, alice, "y", "Lumen revenue", "45 million", aug1)
	if _, err := r.app.DeleteFragment(ctx, alice, last.ID); err != nil {
		t.Fatal(err)
	}
	var deleted *events.FragmentDeleted
	for _, e := range r.log.envelopes() {
		if e.Type == events.TypeFragmentDeleted {
			p, _ := e.Decode()
			deleted = p.(*events.FragmentDeleted)
		}
	}
	if deleted == nil || len(deleted.Derived) != 1 || deleted.Derived[0] != first.ID {
		t.Fatalf("tombstone %+v, want alice's earlier version %s erased with it", deleted, first.ID)
	}
	if got := shared(t, r, alice, "y", "Lumen revenue", nil); !slices.Equal(got, []string{"40 million"}) {
		t.Errorf("after deleting alice's versions the view shows %v, want bob's", got)
	}
	if _, err := history(t, r, alice, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("history of an erased version: %v", err)
	}
	if h, err := history(t, r, alice, bobs.ID); err != nil || !slices.Equal(values(h), []string{"40 million"}) {
		t.Errorf("history after the deletion %+v %v", h, err)
	}
}

// Erasing a user erases every version of their facts, superseded or not;
// another user's version of the fact becomes current again.
func TestErasingAUserErasesTheirSupersededVersions(t *testing.T) {
	r := newRig(t, nil)
	world(t, r)
	bobs := writeFact(t, r, bob, "y", "Lumen revenue", "40 million", may1)
	first := writeFact(t, r, alice, "y", "Lumen revenue", "41 million", time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC))
	writeFact(t, r, alice, "y", "Lumen revenue", "45 million", aug1)
	if _, err := r.app.EraseUser(context.Background(), admin, "alice"); err != nil {
		t.Fatal(err)
	}
	if got := shared(t, r, bob, "y", "Lumen revenue", nil); !slices.Equal(got, []string{"40 million"}) {
		t.Errorf("after erasing alice bob sees %v", got)
	}
	if h, err := history(t, r, bob, bobs.ID); err != nil || !slices.Equal(values(h), []string{"40 million"}) {
		t.Errorf("history after the erasure %+v %v", h, err)
	}
	if _, err := history(t, r, bob, first.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("history of an erased superseded version: %v", err)
	}
}
