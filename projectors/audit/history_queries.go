package audit

import (
	"context"
	"sort"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// Visible implements Backend: M(u,a,t) over the fragments whose write
// event time is at or before t.
func (h *History) Visible(_ context.Context, user, agent string, at time.Time) ([]string, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	p, ns := access.AtTime(at), at.UnixNano()
	out := []string{}
	for _, f := range h.written {
		if f.timeNS <= ns && (f.tier == events.TierShared || f.user == user) && h.graph.Admissible(user, agent, f.prov, p) {
			out = append(out, f.id)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Reads implements Backend.
func (h *History) Reads(_ context.Context, fragment string) ([]Read, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := []Read{}
	for _, r := range h.readsOf[fragment] {
		out = append(out, h.verdict(r, fragment))
	}
	return out, nil
}

// Violations implements Backend.
func (h *History) Violations(_ context.Context, w Window) ([]Read, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := []Read{}
	for _, r := range h.reads {
		if !w.has(r.timeNS) {
			continue
		}
		ids := union(r.private, r.shared)
		sort.Strings(ids)
		for _, id := range ids {
			if v := h.verdict(r, id); !v.Admissible {
				out = append(out, v)
			}
		}
	}
	for _, d := range h.deliveries {
		if w.has(d.timeNS) {
			if v := h.deliveryVerdict(d); !v.Admissible {
				out = append(out, v)
			}
		}
	}
	SortVerdicts(out)
	return out, nil
}

// Deliveries implements Backend.
func (h *History) Deliveries(_ context.Context, query string) ([]Read, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := []Read{}
	for _, d := range h.deliveriesOf[query] {
		out = append(out, h.deliveryVerdict(d))
	}
	return out, nil
}

// verdict judges one fragment of one read, in the order of the multiIf in
// clickhouse/sql/read_verdicts.sql.
//
// The graphs are taken at the read's graph_revision, not at the read's own
// revision: a read is served from a graph that passed the read fence, and a
// revoke acknowledged while the read was running lands between the two. It
// must not turn that legitimate read into a violation, and it cannot hide a
// real one: a read that starts after a revoke was acknowledged fences on
// it, so its graph_revision is at or after the revoke. A graph_revision at
// or after the read's own revision would be a graph from the read's
// future, which no honest reader has, so it is a violation by itself.
//
// The graphs are judged at the read's time as well (access.Now): a reader
// records the wall clock it checked expiries against as its event's time,
// so a fragment served through a grant past its expiry by the reader's own
// clock is a violation even before the expired event was in the log.
func (h *History) verdict(r *read, id string) Read {
	v := Read{Kind: KindRead, User: r.user, Agent: r.agent, At: NanoTime(r.timeNS), Revision: r.revision, Fragment: id,
		Event: r.event, GraphRevision: r.graphRev, Tier: events.TierShared}
	if r.privateSet[id] {
		v.Tier = events.TierPrivate
	}
	f := h.fragments[id]
	switch {
	case f == nil || f.revision >= r.revision:
		v.Reason = ReasonUnknownFragment
	case r.graphRev >= r.revision:
		v.Reason = ReasonFutureGraph
	case f.tier != events.TierShared && f.user != r.user:
		v.Reason = ReasonPrivate
	case !h.graph.Admissible(r.user, r.agent, f.prov, access.Now(r.graphRev, NanoTime(r.timeNS))):
		v.Reason = ReasonProvenance
	}
	v.Admissible = v.Reason == ""
	return v
}

// Metrics implements Backend, with the definitions of the ClickHouse views
// query_metrics, user_activity and memory_reuse.
func (h *History) Metrics(_ context.Context, w Window, bin time.Duration) (Metrics, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return Metrics{Queries: h.queryMetrics(w), Bins: h.bins(w, int64(bin)), Reuse: h.reuse(w)}, nil
}

func (h *History) queryMetrics(w Window) []QueryMetrics {
	out := []QueryMetrics{}
	for id, q := range h.queries {
		if !w.has(q.atNS) {
			continue
		}
		out = append(out, QueryMetrics{Query: id, User: q.user, At: NanoTime(q.atNS), Agents: sortedSet(q.agents),
			ResourceCalls: q.resourceCalls, PrivateFragmentsRead: uint64(len(q.private)),
			SharedFragmentsRead: uint64(len(q.shared)), FragmentsWritten: uint64(len(q.writtenF))})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return out[i].Query < out[j].Query
	})
	return out
}

func (h *History) bins(w Window, width int64) []BinMetrics {
	type key struct {
		start int64
		user  string
	}
	agg := map[key]*BinMetrics{}
	for _, a := range h.activity {
		if !w.has(a.timeNS) {
			continue
		}
		k := key{a.timeNS / width * width, a.user}
		b := agg[k]
		if b == nil {
			b = &BinMetrics{Start: NanoTime(k.start), User: a.user}
			agg[k] = b
		}
		switch a.kind {
		case actSubmitted:
			b.Queries++
		case actResourceCalled:
			b.ResourceCalls++
		case actRead:
			b.MemoryReads++
			b.PrivateFragmentsRead += uint64(a.private)
			b.SharedFragmentsRead += uint64(a.shared)
		case actWritten:
			b.FragmentsWritten++
		}
	}
	out := make([]BinMetrics, 0, len(agg))
	for _, b := range agg {
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].User < out[j].User
	})
	return out
}

func (h *History) reuse(w Window) Reuse {
	type pair struct{ writer, reader string }
	reads := map[pair]uint64{}
	frags := map[pair]map[string]bool{}
	all := map[string]bool{}
	var total uint64
	for _, r := range h.reads {
		if !w.has(r.timeNS) {
			continue
		}
		for _, id := range union(r.private, r.shared) {
			f := h.fragments[id]
			if f == nil || f.user == r.user {
				continue
			}
			k := pair{f.user, r.user}
			reads[k]++
			if frags[k] == nil {
				frags[k] = map[string]bool{}
			}
			frags[k][id] = true
			all[id] = true
			total++
		}
	}
	out := Reuse{CrossUserReads: total, FragmentsReused: uint64(len(all)), Pairs: []ReusePair{}}
	for k, n := range reads {
		out.Pairs = append(out.Pairs, ReusePair{Writer: k.writer, Reader: k.reader, Reads: n, Fragments: uint64(len(frags[k]))})
	}
	sort.Slice(out.Pairs, func(i, j int) bool {
		a, b := out.Pairs[i], out.Pairs[j]
		if a.Writer != b.Writer {
			return a.Writer < b.Writer
		}
		return a.Reader < b.Reader
	})
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
