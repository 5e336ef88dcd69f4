package feed

import "github.com/cmem/cmem/events"

// Summarize returns the metadata of r: its type, revision, time, actor and
// the ids it is about. Payloads it cannot decode keep type, revision, time
// and actor only.
func Summarize(r events.Record) Event {
	e := Event{Revision: r.Revision, Type: r.Type, Time: r.Time, Actor: r.Actor}
	p, err := r.Decode()
	if err != nil {
		return e
	}
	switch p := p.(type) {
	case *events.UserRegistered:
		e.User = p.ID
	case *events.AgentRegistered:
		e.Agent = p.ID
	case *events.ResourceRegistered:
		e.Resource = p.ID
	case *events.UserAgentGranted:
		e.User, e.Agent = p.User, p.Agent
	case *events.UserAgentRevoked:
		e.User, e.Agent = p.User, p.Agent
	case *events.AgentResourceGranted:
		e.Agent, e.Resource = p.Agent, p.Resource
	case *events.AgentResourceRevoked:
		e.Agent, e.Resource = p.Agent, p.Resource
	case *events.FragmentWritten:
		e.User, e.Fragment, e.Tier, e.Query = p.User, p.ID, p.Tier, p.QueryID
	case *events.FragmentRejected:
		e.User, e.Agent, e.Tier, e.Query = p.User, p.Agent, p.Tier, p.QueryID
	case *events.PolicySet:
		e.User, e.Agent = p.Scope.User, p.Scope.Agent
	case *events.MemoryRead:
		e.User, e.Agent, e.Query = p.User, p.Agent, p.QueryID
	case *events.QuerySubmitted:
		e.User, e.Query = p.User, p.ID
	case *events.AgentSelected:
		e.User, e.Query, e.Agent = p.User, p.QueryID, p.Agent
	case *events.ResourceCalled:
		e.User, e.Query, e.Agent, e.Resource = p.User, p.QueryID, p.Agent, p.Resource
	case *events.AgentResponded:
		e.User, e.Query, e.Agent = p.User, p.QueryID, p.Agent
	case *events.QueryAnswered:
		e.User, e.Query = p.User, p.QueryID
	case *events.QueryFailed:
		e.User, e.Query = p.User, p.QueryID
	case *events.QueryDelivered:
		e.User, e.Query = p.User, p.QueryID
	case *events.QueriesListed:
		// One row per listing: who listed (the queries are in the event).
		e.User = p.Reader
	}
	return e
}
