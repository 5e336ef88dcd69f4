package audit

import (
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// delivery is a QueryDelivered in the history.
type delivery struct {
	event              string
	revision, graphRev uint64
	timeNS             int64
	user, query        string
	label              events.Label
}

// applyDelivery records p; the caller holds h.mu.
func (h *History) applyDelivery(r events.Record, p *events.QueryDelivered, ns int64) {
	d := &delivery{event: r.ID, revision: r.Revision, graphRev: p.GraphRevision, timeNS: ns, user: p.User,
		query: p.QueryID, label: p.Label}
	h.deliveries = append(h.deliveries, d)
	h.deliveriesOf[p.QueryID] = append(h.deliveriesOf[p.QueryID], d)
}

// deliveryVerdict judges one delivery, in the order of the multiIf in
// clickhouse/sql/delivery_verdicts.sql. A delivery is a read by the user
// itself, so the label is put to the one read rule (access.Admits, user
// reader) on the graphs at the delivery's graph_revision, which, as for a
// memory read, must precede the delivery's own revision.
func (h *History) deliveryVerdict(d *delivery) Read {
	v := Read{Kind: KindDelivery, User: d.user, At: NanoTime(d.timeNS), Revision: d.revision, Event: d.event,
		GraphRevision: d.graphRev, Query: d.query, Label: DeliveryLabel(d.label.Agents, d.label.Resources, d.label.Fragments)}
	if d.graphRev >= d.revision {
		v.Reason = ReasonFutureGraph
	} else {
		prov := access.Provenance{Agents: d.label.Agents, Resources: d.label.Resources}
		// At the delivery's time too: the clock its snapshot judged grant
		// expiries against (access.Now).
		if verdict := h.graph.Admits(access.Reader{User: d.user}, prov, access.Now(d.graphRev, NanoTime(d.timeNS))); !verdict.OK {
			v.Reason, v.Detail = ReasonLabel, verdict.Reason(d.user)
		}
	}
	v.Admissible = v.Reason == ""
	return v
}
