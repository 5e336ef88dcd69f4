package clickhouse

import (
	"strings"
	"time"
)

// tableData is one insert, column by column: columnar appends are what
// lets the driver keep up with ClickHouse's own batch insert rate.
type tableData struct {
	name    string
	names   []string
	columns []any
	rows    int
}

func (t tableData) insert() string {
	return "INSERT INTO " + t.name + " (" + strings.Join(t.names, ", ") + ")"
}

// stampColumns holds the columns every typed table starts with.
type stampColumns struct {
	event  []string
	rev    []uint64
	timeNS []int64
	time   []time.Time
}

// newStampColumns returns stamp columns with room for n rows: grown by
// appending, they were the largest allocation of a flush.
func newStampColumns(s *scratch, n int) stampColumns {
	return stampColumns{event: s.strs.get(n), rev: s.u64.get(n), timeNS: s.i64.get(n), time: s.times.get(n)}
}

func (c *stampColumns) add(s stamp) {
	c.event = append(c.event, s.event)
	c.rev = append(c.rev, s.revision)
	c.timeNS = append(c.timeNS, s.timeNS)
	c.time = append(c.time, s.time)
}

func (c *stampColumns) values() []any { return []any{c.event, c.rev, c.timeNS, c.time} }

var stampNames = []string{"event_id", "revision", "time_ns", "time"}

func withStamp(names ...string) []string { return append(append([]string{}, stampNames...), names...) }

func eventsTable(rows []eventRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	typ, subj, src, actor, corr, caus, data, errs := mk(n), mk(n), mk(n), mk(n), mk(n), mk(n), mk(n), mk(n)
	ver := s.u32.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		typ, subj, src, actor = append(typ, r.typ), append(subj, r.subject), append(src, r.source), append(actor, r.actor)
		corr, caus, data, errs = append(corr, r.correlation), append(caus, r.causation), append(data, r.data), append(errs, r.err)
		ver = append(ver, r.schemaVersion)
	}
	return tableData{
		name: "events",
		names: []string{"id", "revision", "time_ns", "time", "type", "schema_version", "subject", "source", "actor",
			"correlation_id", "causation_id", "data", "error"},
		columns: append(st.values(), typ, ver, subj, src, actor, corr, caus, data, errs),
		rows:    n,
	}
}

// typedTable is one typed table of a batch: how many rows it has and how
// to lay them out as columns.
type typedTable struct {
	name  string
	rows  func(*batch) int
	build func(*batch, *scratch) tableData
}

var typedTableList = []typedTable{
	{"grants", func(b *batch) int { return len(b.grants) }, func(b *batch, s *scratch) tableData { return grantsTable(b.grants, s) }},
	{"fragments", func(b *batch) int { return len(b.fragments) }, func(b *batch, s *scratch) tableData { return fragmentsTable(b.fragments, s) }},
	{"reads", func(b *batch) int { return len(b.reads) }, func(b *batch, s *scratch) tableData { return readsTable(b.reads, s) }},
	{"read_fragments", func(b *batch) int { return len(b.readFragments) },
		func(b *batch, s *scratch) tableData { return readFragmentsTable(b.readFragments, s) }},
	{"query_facts", func(b *batch) int { return len(b.queryFacts) }, func(b *batch, s *scratch) tableData { return queryFactsTable(b.queryFacts, s) }},
	{"deliveries", func(b *batch) int { return len(b.deliveries) }, func(b *batch, s *scratch) tableData { return deliveriesTable(b.deliveries, s) }},
}

func typedTables(b *batch) []tableData {
	out := make([]tableData, len(typedTableList))
	for i, t := range typedTableList {
		out[i] = t.build(b, new(scratch))
	}
	return out
}

func grantsTable(rows []grantRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	graph, from, to := mk(n), mk(n), mk(n)
	granted, expiry := s.u8.get(n), s.u8.get(n)
	expires := s.i64.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		graph, from, to = append(graph, r.graph), append(from, r.from), append(to, r.to)
		granted, expires, expiry = append(granted, r.granted), append(expires, r.expiresNS), append(expiry, r.expiry)
	}
	return tableData{name: "grants", names: withStamp("graph", "from_id", "to_id", "granted", "expires_ns", "expiry"),
		columns: append(st.values(), graph, from, to, granted, expires, expiry), rows: n}
}

func fragmentsTable(rows []fragmentRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	id, user, tier, query, prov, key := mk(n), mk(n), mk(n), mk(n), mk(n), mk(n)
	agents, resources, derived := s.lists.get(n), s.lists.get(n), s.lists.get(n)
	created := s.i64.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		id, user, tier, query = append(id, r.id), append(user, r.user), append(tier, r.tier), append(query, r.queryID)
		prov, key = append(prov, r.provenance), append(key, r.key)
		agents, resources, derived = append(agents, r.agents), append(resources, r.resources), append(derived, r.derivedFrom)
		created = append(created, r.createdAtNS)
	}
	return tableData{name: "fragments",
		names: withStamp("fragment_id", "user_id", "tier", "query_id", "provenance", "key", "agents", "resources",
			"derived_from", "created_at_ns"),
		columns: append(st.values(), id, user, tier, query, prov, key, agents, resources, derived, created), rows: n}
}

func readsTable(rows []readRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	user, agent, query, policy := mk(n), mk(n), mk(n), mk(n)
	graphRev := s.u64.get(n)
	private, shared := s.lists.get(n), s.lists.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		user, agent, query, policy = append(user, r.user), append(agent, r.agent), append(query, r.queryID), append(policy, r.policy)
		graphRev = append(graphRev, r.graphRevision)
		private, shared = append(private, r.private), append(shared, r.shared)
	}
	return tableData{name: "reads",
		names:   withStamp("user_id", "agent_id", "query_id", "policy", "graph_revision", "private", "shared"),
		columns: append(st.values(), user, agent, query, policy, graphRev, private, shared), rows: n}
}

func readFragmentsTable(rows []readFragmentRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	frag, user, agent, query, tier := mk(n), mk(n), mk(n), mk(n), mk(n)
	graphRev := s.u64.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		frag, user, agent, query, tier = append(frag, r.fragment), append(user, r.user), append(agent, r.agent),
			append(query, r.queryID), append(tier, r.tier)
		graphRev = append(graphRev, r.graphRevision)
	}
	return tableData{name: "read_fragments",
		names:   withStamp("fragment_id", "user_id", "agent_id", "query_id", "listed_tier", "graph_revision"),
		columns: append(st.values(), frag, user, agent, query, tier, graphRev), rows: n}
}

func queryFactsTable(rows []queryFactRow, s *scratch) tableData {
	n := len(rows)
	mk := s.strs.get
	st := newStampColumns(s, n)
	query, user, kind, agent, resource := mk(n), mk(n), mk(n), mk(n), mk(n)
	rounds := s.u32.get(n)
	for _, r := range rows {
		st.add(r.stamp)
		query, user, kind, agent, resource = append(query, r.queryID), append(user, r.user), append(kind, r.kind),
			append(agent, r.agent), append(resource, r.resource)
		rounds = append(rounds, r.round)
	}
	return tableData{name: "query_facts",
		names:   withStamp("query_id", "user_id", "kind", "agent_id", "resource_id", "round"),
		columns: append(st.values(), query, user, kind, agent, resource, rounds), rows: n}
}

// partitionRuns cuts rows, in revision order, into maximal runs that fall
// in one partition (the UTC month of time, as toYYYYMM computes it for a
// DateTime('UTC') column).
func partitionRuns(rows []eventRow) [][]eventRow {
	var runs [][]eventRow
	start := 0
	for i := 1; i <= len(rows); i++ {
		if i == len(rows) || month(rows[i].time) != month(rows[start].time) {
			runs = append(runs, rows[start:i])
			start = i
		}
	}
	return runs
}

func month(t time.Time) int { return t.Year()*100 + int(t.Month()) }
