package audit

import "github.com/cmem/cmem/events"

// Fact is one step of a query's pipeline as every backend counts it for
// the metrics: the history folds it into its query aggregates, ClickHouse
// stores it as a row of query_facts. One definition keeps them counting
// the same steps.
type Fact struct {
	// Query and User are the query's id and its user.
	Query, User string
	// Kind is the step, one of the values of query_facts.kind: submitted,
	// agent_selected, resource_called, agent_responded, answered, failed.
	Kind string
	// Agent, Resource and Round are the agent, the resource called and the
	// round, where the step has them.
	Agent, Resource string
	Round           int
}

// Kinds of Fact; the analytics views of schemas/clickhouse name them.
const (
	factSubmitted      = "submitted"
	factAgentSelected  = "agent_selected"
	factResourceCalled = "resource_called"
	factAgentResponded = "agent_responded"
	factAnswered       = "answered"
	factFailed         = "failed"
)

// FactOf returns the query step p records; false for a payload that is
// none.
func FactOf(p events.Payload) (Fact, bool) {
	switch p := p.(type) {
	case *events.QuerySubmitted:
		return Fact{Query: p.ID, User: p.User, Kind: factSubmitted}, true
	case *events.AgentSelected:
		return Fact{p.QueryID, p.User, factAgentSelected, p.Agent, "", p.Round}, true
	case *events.ResourceCalled:
		return Fact{p.QueryID, p.User, factResourceCalled, p.Agent, p.Resource, p.Round}, true
	case *events.AgentResponded:
		return Fact{p.QueryID, p.User, factAgentResponded, p.Agent, "", p.Round}, true
	case *events.QueryAnswered:
		return Fact{Query: p.QueryID, User: p.User, Kind: factAnswered}, true
	case *events.QueryFailed:
		return Fact{Query: p.QueryID, User: p.User, Kind: factFailed}, true
	}
	return Fact{}, false
}
