package events

import "fmt"

// Payload is the data of one event type. Every payload type is registered in
// this package with its wire name and current schema version.
type Payload interface {
	// EventType is the stable wire name, e.g. "cmem.user.registered".
	EventType() string
	// EventSubject names the entity the event is about, as slash-separated
	// tokens ("users/alice", "grants/user-agent/alice/planner"); the log turns
	// it into the NATS subject.
	EventSubject() string
}

// Wire names of the event types. They are part of the public contract: never
// rename one, add a new name or a new schema version instead.
const (
	TypeUserRegistered       = "cmem.user.registered"
	TypeAgentRegistered      = "cmem.agent.registered"
	TypeResourceRegistered   = "cmem.resource.registered"
	TypeUserAgentGranted     = "cmem.user_agent.granted"
	TypeUserAgentRevoked     = "cmem.user_agent.revoked"
	TypeAgentResourceGranted = "cmem.agent_resource.granted"
	TypeAgentResourceRevoked = "cmem.agent_resource.revoked"
	TypeUserAgentExpired     = "cmem.user_agent.expired"
	TypeAgentResourceExpired = "cmem.agent_resource.expired"
)

type spec struct {
	Type    string
	Version int
	new     func() Payload
	// id is the schema's $id, written into every event's dataschema;
	// formatted once here rather than on every New.
	id string
}

func (s spec) schemaID() string { return s.id }

func (s spec) schemaFile() string {
	return fmt.Sprintf("events/%s.v%d.json", s.Type, s.Version)
}

type specKey struct {
	typ     string
	version int
}

// specs lists every (type, version) this build reads; current holds the
// version it writes.
var (
	specs   = map[specKey]spec{}
	current = map[string]spec{}
)

func register(typ string, version int, newFn func() Payload) {
	s := spec{Type: typ, Version: version, new: newFn}
	s.id = fmt.Sprintf("https://cmem.dev/schemas/events/%s.v%d.json", typ, version)
	specs[specKey{typ, version}] = s
	if c, ok := current[typ]; !ok || c.Version < version {
		current[typ] = s
	}
}

func init() {
	register(TypeUserRegistered, 1, func() Payload { return &UserRegistered{} })
	register(TypeAgentRegistered, 1, func() Payload { return &AgentRegistered{} })
	register(TypeResourceRegistered, 1, func() Payload { return &ResourceRegistered{} })
	register(TypeUserAgentGranted, 1, func() Payload { return &UserAgentGranted{} })
	register(TypeUserAgentRevoked, 1, func() Payload { return &UserAgentRevoked{} })
	register(TypeAgentResourceGranted, 1, func() Payload { return &AgentResourceGranted{} })
	register(TypeAgentResourceRevoked, 1, func() Payload { return &AgentResourceRevoked{} })
	register(TypeUserAgentExpired, 1, func() Payload { return &UserAgentExpired{} })
	register(TypeAgentResourceExpired, 1, func() Payload { return &AgentResourceExpired{} })
	register(TypeFragmentWritten, 1, func() Payload { return &FragmentWritten{} })
	register(TypeFragmentRejected, 1, func() Payload { return &FragmentRejected{} })
	register(TypePolicySet, 1, func() Payload { return &PolicySet{} })
	register(TypeMemoryRead, 1, func() Payload { return &MemoryRead{} })
	register(TypeGraphRead, 1, func() Payload { return &GraphRead{} })
	register(TypeQuerySubmitted, 1, func() Payload { return &QuerySubmitted{} })
	register(TypeAgentSelected, 1, func() Payload { return &AgentSelected{} })
	register(TypeResourceCalled, 1, func() Payload { return &ResourceCalled{} })
	register(TypeAgentResponded, 1, func() Payload { return &AgentResponded{} })
	register(TypeQueryAnswered, 1, func() Payload { return &QueryAnswered{} })
	register(TypeQueryFailed, 1, func() Payload { return &QueryFailed{} })
	register(TypeUserTokenRotated, 1, func() Payload { return &UserTokenRotated{} })
	register(TypeUserTokenRevoked, 1, func() Payload { return &UserTokenRevoked{} })
	register(TypeUserDeactivated, 1, func() Payload { return &UserDeactivated{} })
	register(TypeUserReactivated, 1, func() Payload { return &UserReactivated{} })
	register(TypeUserErased, 1, func() Payload { return &UserErased{} })
	register(TypeFragmentDeleted, 1, func() Payload { return &FragmentDeleted{} })
	// v2 adds labels (information-flow provenance); v1 events stay readable.
	register(TypeAgentSelected, 2, func() Payload { return &AgentSelected{} })
	register(TypeAgentResponded, 2, func() Payload { return &AgentResponded{} })
	register(TypeQueryAnswered, 2, func() Payload { return &QueryAnswered{} })
	register(TypeQueryDelivered, 1, func() Payload { return &QueryDelivered{} })
	register(TypeQueriesListed, 1, func() Payload { return &QueriesListed{} })
	register(TypeGovernanceDecided, 1, func() Payload { return &GovernanceDecided{} })
	// v2 adds an admission gate's verdict to the policy trace.
	register(TypeFragmentWritten, 2, func() Payload { return &FragmentWritten{} })
	register(TypeFragmentRejected, 2, func() Payload { return &FragmentRejected{} })
	// v3 adds the observed (valid) time and resolved time expressions.
	register(TypeFragmentWritten, 3, func() Payload { return &FragmentWritten{} })
	register(TypeFragmentSuperseded, 1, func() Payload { return &FragmentSuperseded{} })
	// v2 adds the coordination target.
	register(TypePolicySet, 2, func() Payload { return &PolicySet{} })
	// v3 adds the fragments a response cites.
	register(TypeAgentResponded, 3, func() Payload { return &AgentResponded{} })
	register(TypeValuesErased, 1, func() Payload { return &ValuesErased{} })
	// v2 adds the valid time a query asks about (as_of).
	register(TypeQuerySubmitted, 2, func() Payload { return &QuerySubmitted{} })
}

func lookup(typ string, version int) (spec, bool) {
	s, ok := specs[specKey{typ, version}]
	return s, ok
}

func specFor(p Payload) (spec, bool) {
	s, ok := current[p.EventType()]
	return s, ok
}

// Types returns the wire names of every registered event type.
func Types() []string {
	out := make([]string, 0, len(current))
	for t := range current {
		out = append(out, t)
	}
	return out
}
