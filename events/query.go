package events

import "time"

// Wire names of the query pipeline's events. Every event of one query has
// the query id as its correlation id and lives on subject queries/<user>/<id>.
const (
	TypeQuerySubmitted = "cmem.query.submitted"
	TypeAgentSelected  = "cmem.agent.selected"
	TypeResourceCalled = "cmem.resource.called"
	TypeAgentResponded = "cmem.agent.responded"
	TypeQueryAnswered  = "cmem.query.answered"
	TypeQueryFailed    = "cmem.query.failed"
	TypeQueryDelivered = "cmem.query.delivered"
)

// QuerySubmitted records a user's query entering the pipeline.
type QuerySubmitted struct {
	ID   string `json:"id"`
	User string `json:"user"`
	Text string `json:"text"`
	// Channel is "http" or "nats"; ReplySubject is where a bus caller waits.
	Channel      string `json:"channel"`
	ReplySubject string `json:"reply_subject,omitempty"`
	// AsOf (v2) asks for the facts valid at that time: the agents' memory
	// views show what was current then (valid time), under the user's
	// permissions when each view is read; absent = now.
	AsOf *time.Time `json:"as_of,omitempty"`
}

// AgentSelected records the coordinator's decision for one round.
type AgentSelected struct {
	QueryID  string `json:"query_id"`
	User     string `json:"user"`
	Round    int    `json:"round"`
	Agent    string `json:"agent"`
	Subquery string `json:"subquery"`
	// Offered is A(u,t) as the coordinator was shown it.
	Offered []string `json:"offered"`
	// Label is the subquery's: the union of the labels of everything the
	// coordinator was shown (v2; a v1 event has none, read as the union of
	// the query's earlier responses).
	Label *Label `json:"label,omitempty"`
	// GraphRevision is the permission snapshot the decision was made on.
	GraphRevision uint64 `json:"graph_revision,omitempty"`
}

// ResourceCalled records one tool call an agent made.
type ResourceCalled struct {
	QueryID      string         `json:"query_id"`
	User         string         `json:"user"`
	Round        int            `json:"round"`
	Agent        string         `json:"agent"`
	Resource     string         `json:"resource"`
	Arguments    map[string]any `json:"arguments"`
	ResultSHA256 string         `json:"result_sha256"`
	ResultBytes  int            `json:"result_bytes"`
	DurationMS   float64        `json:"duration_ms"`
	Error        string         `json:"error,omitempty"`
}

// AgentResponded records an agent's intermediate response for one round.
type AgentResponded struct {
	QueryID          string   `json:"query_id"`
	User             string   `json:"user"`
	Round            int      `json:"round"`
	Agent            string   `json:"agent"`
	Subquery         string   `json:"subquery"`
	Response         string   `json:"response"`
	Resources        []string `json:"resources"`
	FragmentsRead    []string `json:"fragments_read"`
	FragmentsWritten []string `json:"fragments_written"`
	// FragmentsCited are the fragments read that the response was drawn
	// from, its supporting fragments (v3; none when it cites none).
	FragmentsCited []string `json:"fragments_cited,omitempty"`
	ResourceCalls  int      `json:"resource_calls,omitempty"`
	// Refused says why the agent did not run (it left A(u,t) between the
	// coordinator's choice and its turn); empty when it ran.
	Refused string `json:"refused,omitempty"`
	// Label is the response's: the agent, the subquery's label, the
	// provenance of every fragment it read and every resource it called
	// (v2; a v1 event has none, read as the agent and its resources).
	Label *Label `json:"label,omitempty"`
	// GraphRevision is the permission snapshot the turn ran on.
	GraphRevision uint64 `json:"graph_revision,omitempty"`
}

// QueryAnswered records the aggregated answer.
type QueryAnswered struct {
	QueryID          string   `json:"query_id"`
	User             string   `json:"user"`
	Answer           string   `json:"answer"`
	Rounds           int      `json:"rounds"`
	Agents           []string `json:"agents"`
	FragmentsRead    []string `json:"fragments_read"`
	FragmentsWritten []string `json:"fragments_written"`
	// Label is the answer's: the union of the labels of the turns it
	// merges (v2; a v1 event has none, read as the union of its turns').
	Label *Label `json:"label,omitempty"`
}

// QueryFailed records a query that ended without an answer.
type QueryFailed struct {
	QueryID string `json:"query_id"`
	User    string `json:"user"`
	Stage   string `json:"stage"`
	Reason  string `json:"reason"`
}

func querySubject(user, id string) string { return "queries/" + user + "/" + id }

// EventType implements Payload.
func (*QuerySubmitted) EventType() string { return TypeQuerySubmitted }

// EventSubject implements Payload.
func (p *QuerySubmitted) EventSubject() string { return querySubject(p.User, p.ID) }

// EventType implements Payload.
func (*AgentSelected) EventType() string { return TypeAgentSelected }

// EventSubject implements Payload.
func (p *AgentSelected) EventSubject() string { return querySubject(p.User, p.QueryID) }

// EventType implements Payload.
func (*ResourceCalled) EventType() string { return TypeResourceCalled }

// EventSubject implements Payload.
func (p *ResourceCalled) EventSubject() string { return querySubject(p.User, p.QueryID) }

// EventType implements Payload.
func (*AgentResponded) EventType() string { return TypeAgentResponded }

// EventSubject implements Payload.
func (p *AgentResponded) EventSubject() string { return querySubject(p.User, p.QueryID) }

// EventType implements Payload.
func (*QueryAnswered) EventType() string { return TypeQueryAnswered }

// EventSubject implements Payload.
func (p *QueryAnswered) EventSubject() string { return querySubject(p.User, p.QueryID) }

// EventType implements Payload.
func (*QueryFailed) EventType() string { return TypeQueryFailed }

// EventSubject implements Payload.
func (p *QueryFailed) EventSubject() string { return querySubject(p.User, p.QueryID) }

// Withheld is one part of a query that was not delivered, and why.
type Withheld struct {
	// Part is "answer", "step N" (its subquery, response and tool calls) or
	// "history".
	Part   string `json:"part"`
	Reason string `json:"reason"`
}

// QueryDelivered records a query's answer and steps served to its user (an
// HTTP answer, a GET, a bus reply): delivery is a read. Label is the union
// of the labels of what was shown; Withheld lists what was not, because its
// label was no longer admissible to the user at GraphRevision.
type QueryDelivered struct {
	QueryID       string     `json:"query_id"`
	User          string     `json:"user"`
	Channel       string     `json:"channel"`
	Status        string     `json:"status"`
	GraphRevision uint64     `json:"graph_revision"`
	Label         Label      `json:"label"`
	Withheld      []Withheld `json:"withheld,omitempty"`
}

// EventType implements Payload.
func (*QueryDelivered) EventType() string { return TypeQueryDelivered }

// EventSubject implements Payload. Deliveries live outside queries/ so
// the pipeline's consumers never see them.
func (p *QueryDelivered) EventSubject() string { return "deliveries/" + p.User + "/" + p.QueryID }
