package clickhouse

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/projectors/audit"
)

// Graph names in the grants table.
const (
	graphUserAgent     = "user_agent"
	graphAgentResource = "agent_resource"
)

// stamp is where and when an event happened, shared by every row it makes.
type stamp struct {
	event    string
	revision uint64
	timeNS   int64
	time     time.Time // seconds, clamped to what DateTime holds
}

type eventRow struct {
	stamp
	typ, subject, source, actor, correlation, causation, data, err string
	schemaVersion                                                  uint32
}

type grantRow struct {
	stamp
	graph, from, to string
	granted         uint8
	// expiresNS is a grant's expiry (0: none); expiry marks the row of an
	// expired event, a revoke in log order that answers by time skip.
	expiresNS int64
	expiry    uint8
}

type fragmentRow struct {
	stamp
	id, user, tier, queryID, provenance, key string
	agents, resources, derivedFrom           []string
	createdAtNS                              int64
}

type readRow struct {
	stamp
	user, agent, queryID, policy string
	graphRevision                uint64
	private, shared              []string
}

type readFragmentRow struct {
	stamp
	fragment, user, agent, queryID, tier string
	graphRevision                        uint64
}

type queryFactRow struct {
	stamp
	queryID, user, kind, agent, resource string
	round                                uint32
}

// batch is what one flush writes: the raw events and the typed rows
// derived from them, for a contiguous run of revisions ending at last.
type batch struct {
	events        []eventRow
	grants        []grantRow
	fragments     []fragmentRow
	reads         []readRow
	readFragments []readFragmentRow
	queryFacts    []queryFactRow
	deliveries    []deliveryRow
	last          uint64
	// columns holds the column slices of each table's insert (the typed
	// tables in typedTableList's order, then the events), kept from one
	// flush to the next; only the writer's batch uses them.
	columns []scratch
}

// scratches returns the column scratch of every table, emptied for a new
// flush; the typed tables' are then used concurrently, one per insert.
func (b *batch) scratches() []scratch {
	if b.columns == nil {
		b.columns = make([]scratch, len(typedTableList)+1)
	}
	for i := range b.columns {
		b.columns[i].reset()
	}
	return b.columns
}

func (b *batch) len() int { return len(b.events) }

// merge appends the rows of o, which follows b in log order.
func (b *batch) merge(o *batch) {
	b.events = append(b.events, o.events...)
	b.grants = append(b.grants, o.grants...)
	b.fragments = append(b.fragments, o.fragments...)
	b.reads = append(b.reads, o.reads...)
	b.readFragments = append(b.readFragments, o.readFragments...)
	b.queryFacts = append(b.queryFacts, o.queryFacts...)
	b.deliveries = append(b.deliveries, o.deliveries...)
	b.last = o.last
}

func (b *batch) reset() {
	b.events, b.grants, b.fragments = b.events[:0], b.grants[:0], b.fragments[:0]
	b.reads, b.readFragments, b.queryFacts = b.reads[:0], b.readFragments[:0], b.queryFacts[:0]
	b.deliveries = b.deliveries[:0]
}

// maxDateTime is the last second a ClickHouse DateTime holds (UInt32).
const maxDateTime = math.MaxUint32

func stampOf(event string, rev uint64, t time.Time) stamp {
	sec := t.Unix()
	sec = min(max(sec, 0), maxDateTime)
	return stamp{event: event, revision: rev, timeNS: t.UnixNano(), time: time.Unix(sec, 0).UTC()}
}

// add converts one stored event into rows. An event that fails its schema
// is still recorded, raw, with the reason: the trail holds every revision.
func (b *batch) add(v *events.Validator, m eventlog.Msg) {
	b.last = m.Revision
	env, err := v.Parse(m.Data)
	if err != nil {
		b.events = append(b.events, invalidRow(m, err))
		return
	}
	rec := events.Record{Envelope: env, Revision: m.Revision}
	row := eventRow{
		stamp: stampOf(env.ID, m.Revision, env.Time), typ: env.Type, subject: env.Subject,
		source: env.Source, actor: env.Actor, correlation: env.CorrelationID, causation: env.CausationID,
		data: string(env.Data), schemaVersion: uint32(max(env.SchemaVersion, 0)),
	}
	if err := b.addTyped(rec, row.stamp); err != nil {
		row.err = err.Error()
	}
	b.events = append(b.events, row)
}

// invalidRow keeps what can be read from a malformed event. Its id is the
// envelope's when there is one, else derived from the revision, so a
// redelivery still dedupes.
func invalidRow(m eventlog.Msg, cause error) eventRow {
	var loose struct {
		ID      string    `json:"id"`
		Type    string    `json:"type"`
		Subject string    `json:"subject"`
		Time    time.Time `json:"time"`
	}
	_ = json.Unmarshal(m.Data, &loose) // best effort: whatever decodes is kept
	if loose.ID == "" {
		loose.ID = fmt.Sprintf("invalid-revision-%d", m.Revision)
	}
	if loose.Subject == "" {
		loose.Subject = m.Subject
	}
	return eventRow{stamp: stampOf(loose.ID, m.Revision, loose.Time), typ: loose.Type, subject: loose.Subject,
		data: string(m.Data), err: cause.Error()}
}

func (b *batch) addTyped(rec events.Record, st stamp) error {
	if !typed[rec.Type] {
		return nil
	}
	p, err := rec.Decode()
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.UserAgentGranted:
		b.grants = append(b.grants, grantRow{st, graphUserAgent, p.User, p.Agent, 1, expiryNS(p.ExpiresAt), 0})
	case *events.UserAgentRevoked:
		b.grants = append(b.grants, grantRow{st, graphUserAgent, p.User, p.Agent, 0, 0, 0})
	case *events.UserAgentExpired:
		b.grants = append(b.grants, grantRow{st, graphUserAgent, p.User, p.Agent, 0, 0, 1})
	case *events.AgentResourceGranted:
		b.grants = append(b.grants, grantRow{st, graphAgentResource, p.Agent, p.Resource, 1, expiryNS(p.ExpiresAt), 0})
	case *events.AgentResourceRevoked:
		b.grants = append(b.grants, grantRow{st, graphAgentResource, p.Agent, p.Resource, 0, 0, 0})
	case *events.AgentResourceExpired:
		b.grants = append(b.grants, grantRow{st, graphAgentResource, p.Agent, p.Resource, 0, 0, 1})
	case *events.FragmentWritten:
		b.fragments = append(b.fragments, fragmentRow{st, p.ID, p.User, p.Tier, p.QueryID, p.Provenance, p.Key,
			nonNil(p.Agents), nonNil(p.Resources), nonNil(p.DerivedFrom), p.CreatedAt.UnixNano()})
	case *events.MemoryRead:
		b.addRead(st, p)
	case *events.QueryDelivered:
		b.deliveries = append(b.deliveries, deliveryRowOf(st, p))
	case *events.QueriesListed:
		// One listing, one delivery row per query it showed (the table's
		// key is (query_id, event_id), so the rows stay apart).
		for i := range p.Deliveries {
			b.deliveries = append(b.deliveries, deliveryRowOf(st, &p.Deliveries[i]))
		}
	default:
		if f, ok := audit.FactOf(p); ok {
			b.queryFacts = append(b.queryFacts, queryFactRow{st, f.Query, f.User, f.Kind, f.Agent, f.Resource, round(f.Round)})
		}
	}
	return nil
}

func (b *batch) addRead(st stamp, p *events.MemoryRead) {
	b.reads = append(b.reads, readRow{st, p.User, p.Agent, p.QueryID, p.Policy.Kind, p.GraphRevision,
		nonNil(p.Private), nonNil(p.Shared)})
	for _, id := range p.Private {
		b.readFragments = append(b.readFragments, readFragmentRow{st, id, p.User, p.Agent, p.QueryID, events.TierPrivate, p.GraphRevision})
	}
	for _, id := range p.Shared {
		b.readFragments = append(b.readFragments, readFragmentRow{st, id, p.User, p.Agent, p.QueryID, events.TierShared, p.GraphRevision})
	}
}

// expiryNS is the expiry column of a grant: as access does, never 0 for a
// grant that has one.
func expiryNS(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return max(t.UnixNano(), 1)
}

func round(r int) uint32 { return uint32(min(max(r, 0), math.MaxUint32)) }

// typed lists the event types that have rows beyond the raw event.
var typed = map[string]bool{
	events.TypeUserAgentGranted: true, events.TypeUserAgentRevoked: true,
	events.TypeAgentResourceGranted: true, events.TypeAgentResourceRevoked: true,
	events.TypeUserAgentExpired: true, events.TypeAgentResourceExpired: true,
	events.TypeFragmentWritten: true, events.TypeMemoryRead: true,
	events.TypeQuerySubmitted: true, events.TypeAgentSelected: true, events.TypeResourceCalled: true,
	events.TypeAgentResponded: true, events.TypeQueryAnswered: true, events.TypeQueryFailed: true,
	events.TypeQueryDelivered: true, events.TypeQueriesListed: true,
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
