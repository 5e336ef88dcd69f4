package audittest

import (
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

// backendOf appends payloads at the given times (revisions 1, 2, ...) to a
// fresh backend and the reference.
func backendOf(t *testing.T, newBackend NewBackend, steps []step) *subject {
	t.Helper()
	s := start(t, newBackend)
	envs := make([]events.Envelope, len(steps))
	for i, st := range steps {
		envs[i] = event(t, st.at, st.p)
	}
	s.append(t, envs)
	return s
}

// noLabel is the label of a text derived from nothing.
var noLabel = events.Label{Agents: []string{}, Resources: []string{}}

type step struct {
	at time.Time
	p  events.Payload
}

// testVisibleByHand checks M(u,a,t) on a log small enough to answer by
// hand: existence by write time, tiers, revoke and regrant, and a
// backdated revoke that changes the past as seen by time.
func testVisibleByHand(t *testing.T, newBackend NewBackend) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	policy := events.PolicyTrace{Kind: "simple", Scope: "global"}
	frag := func(id, user, tier string, resources ...string) events.Payload {
		return &events.FragmentWritten{ID: id, Key: id, Tier: tier, User: user, Agents: []string{"planner"},
			Resources: append([]string{}, resources...), CreatedAt: t0, Provenance: events.ProvenanceDirect, Policy: policy}
	}
	h := backendOf(t, newBackend, []step{
		{at(1), &events.UserAgentGranted{User: "alice", Agent: "planner"}},
		{at(2), &events.AgentResourceGranted{Agent: "planner", Resource: "guide"}},
		{at(3), frag("f1", "bob", events.TierShared, "guide")},
		{at(3), frag("f2", "alice", events.TierPrivate, "guide")},
		{at(3), frag("f3", "bob", events.TierPrivate)},
		{at(4), frag("f4", "bob", events.TierShared)},
		{at(6), &events.AgentResourceRevoked{Agent: "planner", Resource: "guide"}},
		{at(8), &events.AgentResourceGranted{Agent: "planner", Resource: "guide"}},
		// Recorded last, in force from minute 7: a correction of the past.
		{at(7), &events.UserAgentRevoked{User: "alice", Agent: "planner"}},
	})
	cases := []struct {
		min  int
		want []string
	}{
		{0, []string{}},                 // nothing written yet
		{2, []string{}},                 // still nothing written
		{3, []string{"f1", "f2"}},       // f3 is bob's private; f4 not yet
		{5, []string{"f1", "f2", "f4"}}, // f4 needs no resource
		{6, []string{"f4"}},             // guide revoked from planner
		{7, []string{}},                 // the backdated revoke of alice -> planner
		{9, []string{}},                 // guide is back, alice -> planner is not
	}
	for _, c := range cases {
		if got := h.visible(t, "alice", "planner", at(c.min)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("M(alice, planner, minute %d) = %v, want %v", c.min, got, c.want)
		}
	}
	if got := h.visible(t, "bob", "planner", at(5)); len(got) != 0 {
		t.Errorf("bob was never granted planner, yet sees %v", got)
	}
}

// testMetricsByHand checks the per-query, per-bin and reuse figures of
// one small query.
func testMetricsByHand(t *testing.T, newBackend NewBackend) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	policy := events.PolicyTrace{Kind: "simple", Scope: "global"}
	h := backendOf(t, newBackend, []step{
		{at(0), &events.FragmentWritten{ID: "old", Key: "k", Tier: events.TierShared, User: "bob", Agents: []string{"a"},
			Resources: []string{}, CreatedAt: t0, Provenance: events.ProvenanceDirect, Policy: policy}},
		{at(10), &events.QuerySubmitted{ID: "q1", User: "alice", Text: "t", Channel: "http"}},
		// (A label, which the metrics do not look at, because a log takes
		// only events that pass their schema.)
		{at(11), &events.AgentSelected{QueryID: "q1", User: "alice", Round: 1, Agent: "b", Offered: []string{"a", "b"}, Label: &noLabel}},
		{at(12), &events.AgentSelected{QueryID: "q1", User: "alice", Round: 2, Agent: "a", Offered: []string{"a", "b"}, Label: &noLabel}},
		{at(13), &events.MemoryRead{User: "alice", Agent: "a", QueryID: "q1", Private: []string{}, Shared: []string{"old"},
			GraphRevision: 4, Policy: policy}},
		{at(14), &events.ResourceCalled{QueryID: "q1", User: "alice", Round: 2, Agent: "a", Resource: "r", Arguments: map[string]any{}}},
		{at(15), &events.ResourceCalled{QueryID: "q1", User: "alice", Round: 2, Agent: "a", Resource: "r", Arguments: map[string]any{}}},
		{at(16), &events.FragmentWritten{ID: "new", Key: "k", Tier: events.TierPrivate, User: "alice", Agents: []string{"a"},
			Resources: []string{"r"}, CreatedAt: t0, QueryID: "q1", Provenance: events.ProvenanceTransitive, Policy: policy}},
		{at(3600), &events.MemoryRead{User: "alice", Agent: "a", Private: []string{"new"}, Shared: []string{"old"},
			GraphRevision: 8, Policy: policy}},
	})
	m := h.metrics(t, audit.MetricsQuery{Bin: time.Hour})
	wantQ := []audit.QueryMetrics{{Query: "q1", User: "alice", At: at(10), Agents: []string{"a", "b"}, ResourceCalls: 2,
		SharedFragmentsRead: 1, FragmentsWritten: 1}}
	if !reflect.DeepEqual(m.Queries, wantQ) {
		t.Errorf("queries %+v, want %+v", m.Queries, wantQ)
	}
	wantB := []audit.BinMetrics{
		{Start: t0, User: "alice", Queries: 1, ResourceCalls: 2, MemoryReads: 1, SharedFragmentsRead: 1, FragmentsWritten: 1},
		{Start: t0, User: "bob", FragmentsWritten: 1},
		{Start: at(3600), User: "alice", MemoryReads: 1, PrivateFragmentsRead: 1, SharedFragmentsRead: 1},
	}
	if !reflect.DeepEqual(m.Bins, wantB) {
		t.Errorf("bins %+v, want %+v", m.Bins, wantB)
	}
	wantR := audit.Reuse{CrossUserReads: 2, FragmentsReused: 1, Pairs: []audit.ReusePair{{Writer: "bob", Reader: "alice", Reads: 2, Fragments: 1}}}
	if !reflect.DeepEqual(m.Reuse, wantR) {
		t.Errorf("reuse %+v, want %+v", m.Reuse, wantR)
	}
	late := h.metrics(t, audit.MetricsQuery{WindowQuery: audit.WindowQuery{From: ptr(at(17)), To: ptr(at(7200))}, Bin: time.Hour})
	if len(late.Queries) != 0 || len(late.Bins) != 1 || late.Reuse.CrossUserReads != 1 {
		t.Errorf("window after the query: %+v", late)
	}
}
