package clickhouse

import "github.com/cmem/cmem/events"

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

func deliveriesTable(rows []deliveryRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	query, user, channel, status := mk(n), mk(n), mk(n), mk(n)
	graphRev := s.u64.get(n)
	agents, resources, fragments := s.lists.get(n), s.lists.get(n), s.lists.get(n)
	parts, reasons := s.lists.get(n), s.lists.get(n)
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
