package audit

import (
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// deliveryRow is one cmem.query.delivered event: a query's answer and
// steps served to its user, with the label of what was shown.
type deliveryRow struct {
	stamp
	queryID, user, channel, status string
	graphRevision                  uint64
	agents, resources, fragments   []string
	withheldParts, withheldReasons []string
}

func deliveryRowOf(st stamp, p *events.QueryDelivered) deliveryRow {
	r := deliveryRow{stamp: st, queryID: p.QueryID, user: p.User, channel: p.Channel, status: p.Status,
		graphRevision: p.GraphRevision, agents: nonNil(p.Label.Agents), resources: nonNil(p.Label.Resources),
		fragments: nonNil(p.Label.Fragments), withheldParts: []string{}, withheldReasons: []string{}}
	for _, w := range p.Withheld {
		r.withheldParts, r.withheldReasons = append(r.withheldParts, w.Part), append(r.withheldReasons, w.Reason)
	}
	return r
}

func deliveriesTable(rows []deliveryRow) tableData {
	n := len(rows)
	var st stampColumns
	query, user, channel, status := mk(n), mk(n), mk(n), mk(n)
	graphRev := make([]uint64, 0, n)
	agents, resources, fragments := make([][]string, 0, n), make([][]string, 0, n), make([][]string, 0, n)
	parts, reasons := make([][]string, 0, n), make([][]string, 0, n)
	for _, r := range rows {
		st.add(r.stamp)
		query, user, channel, status = append(query, r.queryID), append(user, r.user), append(channel, r.channel), append(status, r.status)
		graphRev = append(graphRev, r.graphRevision)
		agents, resources, fragments = append(agents, r.agents), append(resources, r.resources), append(fragments, r.fragments)
		parts, reasons = append(parts, r.withheldParts), append(reasons, r.withheldReasons)
	}
	return tableData{name: "deliveries",
		names: withStamp("query_id", "user_id", "channel", "status", "graph_revision", "agents", "resources", "fragments",
			"withheld_parts", "withheld_reasons"),
		columns: append(st.values(), query, user, channel, status, graphRev, agents, resources, fragments, parts, reasons),
		rows:    n}
}

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
// sql/delivery_verdicts.sql. A delivery is a read by the user itself, so
// the label is put to the one read rule (access.Admits, user reader) on
// the graphs at the delivery's graph_revision, which, as for a memory read,
// must precede the delivery's own revision.
func (h *History) deliveryVerdict(d *delivery) Read {
	v := Read{Kind: KindDelivery, User: d.user, At: nsTime(d.timeNS), Revision: d.revision, Event: d.event,
		GraphRevision: d.graphRev, Query: d.query, Label: labelOf(d.label.Agents, d.label.Resources, d.label.Fragments)}
	if d.graphRev >= d.revision {
		v.Reason = ReasonFutureGraph
	} else {
		prov := access.Provenance{Agents: d.label.Agents, Resources: d.label.Resources}
		// At the delivery's time too: the clock its snapshot judged grant
		// expiries against (access.Now).
		if verdict := h.graph.Admits(access.Reader{User: d.user}, prov, access.Now(d.graphRev, nsTime(d.timeNS))); !verdict.OK {
			v.Reason, v.Detail = ReasonLabel, verdict.Reason(d.user)
		}
	}
	v.Admissible = v.Reason == ""
	return v
}
