package audit

import (
	"context"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/snapshot"
)

// historyState is the history as a snapshot holds it: ids, provenance,
// revisions and times only (the history keeps no content). The indexes
// (fragments by id, reads and deliveries by fragment and query) are
// rebuilt from the lists.
type historyState struct {
	Written    []fragmentState
	Reads      []readState
	Queries    map[string]queryState
	Activity   []activityState
	Deliveries []deliveryState
}

type fragmentState struct {
	ID, User, Tier string
	Prov           access.Provenance
	Revision       uint64
	TimeNS         int64
}

type readState struct {
	Event              string
	Revision, GraphRev uint64
	TimeNS             int64
	User, Agent        string
	Private, Shared    []string
}

type queryState struct {
	User                      string
	AtNS                      int64
	Agents                    []string
	ResourceCalls             uint64
	Private, Shared, WrittenF []string
}

type activityState struct {
	User            string
	TimeNS          int64
	Kind            uint8
	Private, Shared int
}

type deliveryState struct {
	Event              string
	Revision, GraphRev uint64
	TimeNS             int64
	User, Query        string
	Label              events.Label
}

var _ snapshot.Freezer = (*History)(nil)

// MarshalSnapshot implements snapshot.Section.
func (h *History) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return h.FreezeSnapshot()(ctx, s)
}

// FreezeSnapshot implements snapshot.Freezer: the records are copied
// (their id lists are never changed once recorded); the result encodes.
func (h *History) FreezeSnapshot() snapshot.Frozen {
	h.mu.RLock()
	st := historyState{Queries: make(map[string]queryState, len(h.queries))}
	for _, f := range h.written {
		st.Written = append(st.Written, fragmentState{f.id, f.user, f.tier, f.prov, f.revision, f.timeNS})
	}
	for _, r := range h.reads {
		st.Reads = append(st.Reads, readState{r.event, r.revision, r.graphRev, r.timeNS, r.user, r.agent, r.private, r.shared})
	}
	for id, q := range h.queries {
		st.Queries[id] = queryState{q.user, q.atNS, keys(q.agents), q.resourceCalls, keys(q.private), keys(q.shared), keys(q.writtenF)}
	}
	for _, a := range h.activity {
		st.Activity = append(st.Activity, activityState{a.user, a.timeNS, uint8(a.kind), a.private, a.shared})
	}
	for _, d := range h.deliveries {
		st.Deliveries = append(st.Deliveries, deliveryState{d.event, d.revision, d.graphRev, d.timeNS, d.user, d.query, d.label})
	}
	h.mu.RUnlock()
	return func(context.Context, snapshot.Sealer) ([]byte, error) { return snapshot.EncodeJSON("audit", st) }
}

// RestoreSnapshot implements snapshot.Section.
func (h *History) RestoreSnapshot(_ context.Context, _ snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st historyState
	if err := snapshot.DecodeJSON("audit", data, &st); err != nil {
		return nil, err
	}
	n := NewHistory(h.graph)
	for _, f := range st.Written {
		fr := &fragment{id: f.ID, user: f.User, tier: f.Tier, prov: f.Prov, revision: f.Revision, timeNS: f.TimeNS}
		n.fragments[f.ID] = fr
		n.written = append(n.written, fr)
	}
	for _, r := range st.Reads {
		rd := &read{event: r.Event, revision: r.Revision, graphRev: r.GraphRev, timeNS: r.TimeNS, user: r.User, agent: r.Agent,
			private: r.Private, shared: r.Shared, privateSet: set(r.Private), sharedSet: set(r.Shared)}
		n.reads = append(n.reads, rd)
		for _, id := range union(r.Private, r.Shared) {
			n.readsOf[id] = append(n.readsOf[id], rd)
		}
	}
	for id, q := range st.Queries {
		n.queries[id] = &queryAgg{user: q.User, atNS: q.AtNS, agents: set(q.Agents), resourceCalls: q.ResourceCalls,
			private: set(q.Private), shared: set(q.Shared), writtenF: set(q.WrittenF)}
	}
	for _, a := range st.Activity {
		n.activity = append(n.activity, activity{user: a.User, timeNS: a.TimeNS, kind: activityKind(a.Kind), private: a.Private, shared: a.Shared})
	}
	for _, d := range st.Deliveries {
		dl := &delivery{event: d.Event, revision: d.Revision, graphRev: d.GraphRev, timeNS: d.TimeNS, user: d.User, query: d.Query, label: d.Label}
		n.deliveries = append(n.deliveries, dl)
		n.deliveriesOf[d.Query] = append(n.deliveriesOf[d.Query], dl)
	}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.revision, h.fragments, h.written, h.reads, h.readsOf = revision, n.fragments, n.written, n.reads, n.readsOf
		h.queries, h.activity, h.deliveries, h.deliveriesOf = n.queries, n.activity, n.deliveries, n.deliveriesOf
	}, nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
