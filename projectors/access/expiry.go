package access

import (
	"sort"
	"time"

	"github.com/cmem/cmem/events"
)

// Due is a grant with an expiry that is still the newest change of its
// edge: what an expirer must end when ExpiresAt passes.
type Due struct {
	// UserAgent selects G_UA (From a user, To an agent); otherwise G_AR.
	UserAgent     bool
	From, To      string
	GrantRevision uint64
	ExpiresAt     time.Time
}

// Payload is the expired event that ends d.
func (d Due) Payload() events.Payload {
	if d.UserAgent {
		return &events.UserAgentExpired{User: d.From, Agent: d.To, GrantRevision: d.GrantRevision, ExpiresAt: d.ExpiresAt}
	}
	return &events.AgentResourceExpired{Agent: d.From, Resource: d.To, GrantRevision: d.GrantRevision, ExpiresAt: d.ExpiresAt}
}

type edgeKey struct {
	ua       bool
	from, to string
}

// applyEdge folds a grant, revoke or expiry into its graph and keeps the
// set of due expiries: a grant with an expiry becomes due, any other change
// of the edge replaces it.
func (g *Graph) applyEdge(p events.Payload, c change) {
	var k edgeKey
	timed := true
	var expires *time.Time
	switch p := p.(type) {
	case *events.UserAgentGranted:
		k, c.granted, expires = edgeKey{true, p.User, p.Agent}, true, p.ExpiresAt
	case *events.UserAgentRevoked:
		k = edgeKey{true, p.User, p.Agent}
	case *events.UserAgentExpired:
		k, timed = edgeKey{true, p.User, p.Agent}, false
	case *events.AgentResourceGranted:
		k, c.granted, expires = edgeKey{false, p.Agent, p.Resource}, true, p.ExpiresAt
	case *events.AgentResourceRevoked:
		k = edgeKey{false, p.Agent, p.Resource}
	case *events.AgentResourceExpired:
		k, timed = edgeKey{false, p.Agent, p.Resource}, false
	default:
		return
	}
	delete(g.due, k)
	if expires != nil {
		c.expires = max(expires.UnixNano(), 1)
		g.due[k] = Due{UserAgent: k.ua, From: k.from, To: k.to, GrantRevision: c.rev, ExpiresAt: expires.UTC()}
	}
	e := g.ar
	if k.ua {
		e = g.ua
	}
	e.add(k.from, k.to, c, timed)
}

// DueBy returns the grants whose expiry is at or before t and whose
// expired event is not applied yet, ordered by expiry.
func (g *Graph) DueBy(t time.Time) []Due {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []Due
	for _, d := range g.due {
		if !d.ExpiresAt.After(t) {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ExpiresAt.Equal(out[j].ExpiresAt) {
			return out[i].ExpiresAt.Before(out[j].ExpiresAt)
		}
		return out[i].GrantRevision < out[j].GrantRevision
	})
	return out
}

// NextExpiry is the earliest expiry not yet ended by an expired event.
func (g *Graph) NextExpiry() (time.Time, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var next time.Time
	for _, d := range g.due {
		if next.IsZero() || d.ExpiresAt.Before(next) {
			next = d.ExpiresAt
		}
	}
	return next, !next.IsZero()
}
