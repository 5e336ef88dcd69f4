package access

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cmem/cmem/events"
)

// Stamp is where in the log something happened.
type Stamp struct {
	Revision uint64
	Time     time.Time
}

// User is a registered user. TokenSHA256 is the hex SHA-256 of its token.
type User struct {
	ID          string
	Role        string
	TokenSHA256 string
	Registered  Stamp
	// Status is StatusActive, StatusDeactivated or StatusErased; a user
	// whose token was revoked has an empty TokenSHA256.
	Status string
}

// Agent is a registered agent.
type Agent struct {
	ID           string
	Description  string
	SystemPrompt string
	Registered   Stamp
}

// Resource is a registered resource with its kind-specific configuration.
type Resource struct {
	ID          string
	Kind        string
	Description string
	Config      json.RawMessage
	Registered  Stamp
}

// AgentAccess is one agent a user may invoke, with the resources that agent
// may use, both at the same Point. ExpiresAt is when the user -> agent grant
// ends by itself (nil: until revoked); ResourceExpiry holds the same for
// each resource whose grant has an expiry (resources absent from it are
// granted until revoked).
type AgentAccess struct {
	ID             string               `json:"id"`
	Resources      []string             `json:"resources"`
	ExpiresAt      *time.Time           `json:"expires_at,omitempty"`
	ResourceExpiry map[string]time.Time `json:"resource_expiry,omitempty"`
}

// Provenance is the part of a fragment's provenance that admissibility reads.
type Provenance struct {
	Agents    []string
	Resources []string
}

// Graph is the access projection. It is safe for concurrent use: one writer
// (the projector) and any number of readers.
type Graph struct {
	mu        sync.RWMutex
	revision  uint64
	users     map[string]User
	byToken   map[string]string
	agents    map[string]Agent
	resources map[string]Resource
	ua        edges
	ar        edges
	due       map[edgeKey]Due // edges whose newest change is a grant with an expiry
}

// NewGraph returns an empty graph at revision 0.
func NewGraph() *Graph {
	return &Graph{
		users:     map[string]User{},
		byToken:   map[string]string{},
		agents:    map[string]Agent{},
		resources: map[string]Resource{},
		ua:        edges{},
		ar:        edges{},
		due:       map[edgeKey]Due{},
	}
}

// Name identifies the projection; it is stable because it names the
// projection's dead-letter subject.
func (g *Graph) Name() string { return "access" }

// Apply folds one event into the graph. Records at or below the current
// revision are ignored, which makes redelivery harmless; types the graph does
// not care about only advance the revision.
func (g *Graph) Apply(r events.Record) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.Revision <= g.revision {
		return nil
	}
	g.revision = r.Revision
	if !interesting[r.Type] {
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	st := Stamp{Revision: r.Revision, Time: r.Time}
	c := change{rev: r.Revision, at: r.Time.UnixNano()}
	switch p := p.(type) {
	case *events.UserRegistered:
		if _, dup := g.users[p.ID]; dup {
			return fmt.Errorf("%w: user %q registered twice", ErrInconsistent, p.ID)
		}
		g.users[p.ID] = User{ID: p.ID, Role: p.Role, TokenSHA256: p.TokenSHA256, Registered: st, Status: StatusActive}
		g.byToken[p.TokenSHA256] = p.ID
	case *events.AgentRegistered:
		g.agents[p.ID] = Agent{ID: p.ID, Description: p.Description, SystemPrompt: p.SystemPrompt, Registered: st}
	case *events.ResourceRegistered:
		g.resources[p.ID] = Resource{ID: p.ID, Kind: p.Kind, Description: p.Description, Config: p.Config, Registered: st}
	default:
		g.applyEdge(p, c)
		g.applyLifecycle(p)
	}
	return nil
}

var interesting = map[string]bool{
	events.TypeUserRegistered: true, events.TypeAgentRegistered: true, events.TypeResourceRegistered: true,
	events.TypeUserAgentGranted: true, events.TypeUserAgentRevoked: true,
	events.TypeAgentResourceGranted: true, events.TypeAgentResourceRevoked: true,
	events.TypeUserTokenRotated: true, events.TypeUserTokenRevoked: true, events.TypeUserDeactivated: true,
	events.TypeUserReactivated: true, events.TypeUserErased: true,
	events.TypeUserAgentExpired: true, events.TypeAgentResourceExpired: true,
}

// Revision is the revision of the last event applied.
func (g *Graph) Revision() uint64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.revision
}
