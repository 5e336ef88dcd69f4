package events

import (
	"encoding/json"
	"time"
)

// Wire names of the memory events.
const (
	TypeFragmentWritten  = "cmem.fragment.written"
	TypeFragmentRejected = "cmem.fragment.rejected"
	TypePolicySet        = "cmem.policy.set"
	TypeMemoryRead       = "cmem.memory.read"
	TypeGraphRead        = "cmem.memory.graph_read"
)

// Memory tiers.
const (
	TierPrivate = "private"
	TierShared  = "shared"
)

// Provenance modes: transitive (the default) folds the provenance of every
// fragment read into what is written; direct records only the writer's own.
const (
	ProvenanceTransitive = "transitive"
	ProvenanceDirect     = "direct"
)

// Embedding is a fragment key's vector as an embedder made it. Vector holds
// Dims little-endian float32s, base64-encoded (standard alphabet, padded).
type Embedding struct {
	Model  string `json:"model"`
	Dims   int    `json:"dims"`
	Vector string `json:"vector"`
}

// PolicyTrace records which policy shaped a write or a read.
type PolicyTrace struct {
	Kind  string `json:"kind"`
	Scope string `json:"scope"`
	// Event is the id of the PolicySet event in force; empty for the
	// built-in default.
	Event string `json:"event,omitempty"`
	// Transformed is true when the policy changed the content (redaction,
	// LLM extraction or transformation).
	Transformed bool `json:"transformed,omitempty"`
	// Notes say what the policy did, e.g. "redacted 2 e-mail addresses".
	Notes []string `json:"notes,omitempty"`
	// Admission is an admission gate's verdict (v2 of FragmentWritten and
	// FragmentRejected): the fragment was written iff Score ≥ Threshold.
	Admission *Admission `json:"admission,omitempty"`
}

// Admission is how an admission gate scored a candidate memory (seed 002
// §3.1): a range per rubric and the final score ½(Σ low + Σ high).
type Admission struct {
	Score     float64       `json:"score"`
	Threshold float64       `json:"threshold"`
	Scorer    string        `json:"scorer"`
	Rubrics   []RubricRange `json:"rubrics"`
}

// RubricRange is the score range given to one rubric.
type RubricRange struct {
	Name string  `json:"name"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// FragmentWritten records a memory fragment with its immutable provenance:
// created by User through Agents, using Resources. Agents and Resources are
// sorted and unique; with transitive provenance they include those of every
// fragment in DerivedFrom.
type FragmentWritten struct {
	ID          string      `json:"id"`
	Key         string      `json:"key"`
	Value       string      `json:"value"`
	Tier        string      `json:"tier"`
	User        string      `json:"user"`
	Agents      []string    `json:"agents"`
	Resources   []string    `json:"resources"`
	CreatedAt   time.Time   `json:"created_at"`
	SourceEvent string      `json:"source_event,omitempty"`
	QueryID     string      `json:"query_id,omitempty"`
	DerivedFrom []string    `json:"derived_from,omitempty"`
	Provenance  string      `json:"provenance"`
	Policy      PolicyTrace `json:"policy"`
	Embedding   *Embedding  `json:"embedding,omitempty"`
	// ObservedAt (v3) is when the fact was observed or is about, given by
	// the writer (a conversation's session date); nil means CreatedAt. It is
	// the fragment's valid time, beside the log's record time.
	ObservedAt *time.Time `json:"observed_at,omitempty"`
	// TimeRefs (v3) are the relative time expressions of Key and Value
	// ("last week", "two days ago") resolved against the observed time when
	// the fragment was written, so a "when" question has a date to answer.
	TimeRefs []TimeRef `json:"time_refs,omitempty"`
}

// ObservedTime is the fragment's valid time: ObservedAt, or CreatedAt when
// the writer gave none.
func (p *FragmentWritten) ObservedTime() time.Time {
	if p.ObservedAt != nil {
		return *p.ObservedAt
	}
	return p.CreatedAt
}

// TimeRef is one relative time expression of a fragment's text resolved to
// the days [Start, End) at a grain (day, week, month, season or year).
// Every field is content, sealed with the key and value: the dates say what
// the text said, so erasing the fragment must take them too. Start and End
// are dates, YYYY-MM-DD.
type TimeRef struct {
	Text  string `json:"text"`
	Start string `json:"start"`
	End   string `json:"end"`
	Grain string `json:"grain"`
}

// FragmentRejected records a write that a write policy refused.
type FragmentRejected struct {
	User    string      `json:"user"`
	Agent   string      `json:"agent"`
	Tier    string      `json:"tier"`
	Reason  string      `json:"reason"`
	QueryID string      `json:"query_id,omitempty"`
	Policy  PolicyTrace `json:"policy"`
}

// PolicyScope is where a policy applies: both empty is global; the most
// specific scope in force wins (user+agent > user > agent > global).
type PolicyScope struct {
	User  string `json:"user,omitempty"`
	Agent string `json:"agent,omitempty"`
}

// PolicySet records an admin setting the policy for Target at Scope,
// in force from EffectiveAt.
type PolicySet struct {
	// Target is write_private, write_shared, read, provenance or (v2)
	// coordination.
	Target      string          `json:"target"`
	Scope       PolicyScope     `json:"scope"`
	Kind        string          `json:"kind"`
	Config      json.RawMessage `json:"config,omitempty"`
	EffectiveAt time.Time       `json:"effective_at"`
}

// MemoryRead records a memory view served to User through Agent: which
// fragments of each tier, checked against the access graphs at
// GraphRevision, under which read policy.
type MemoryRead struct {
	User          string      `json:"user"`
	Agent         string      `json:"agent"`
	Query         string      `json:"query"`
	QueryID       string      `json:"query_id,omitempty"`
	Private       []string    `json:"private"`
	Shared        []string    `json:"shared"`
	GraphRevision uint64      `json:"graph_revision"`
	KUser         int         `json:"k_user"`
	KCross        int         `json:"k_cross"`
	Policy        PolicyTrace `json:"policy"`
}

// GraphRead records graph memory served to User through Agent: which
// insights, queries and interactions, checked against the access graphs at
// GraphRevision. Label is the union of their provenance, so the audit can
// judge the read as it judges a delivery.
type GraphRead struct {
	User          string   `json:"user"`
	Agent         string   `json:"agent"`
	Query         string   `json:"query"`
	QueryID       string   `json:"query_id,omitempty"`
	Insights      []string `json:"insights"`
	Queries       []string `json:"queries"`
	Interactions  []string `json:"interactions"`
	GraphRevision uint64   `json:"graph_revision"`
	Label         Label    `json:"label"`
}

// EventType implements Payload.
func (*GraphRead) EventType() string { return TypeGraphRead }

// EventSubject implements Payload.
func (p *GraphRead) EventSubject() string { return "graphreads/" + p.User + "/" + p.Agent }

// EventType implements Payload.
func (*FragmentWritten) EventType() string { return TypeFragmentWritten }

// EventSubject implements Payload.
func (p *FragmentWritten) EventSubject() string { return "fragments/" + p.User + "/" + p.ID }

// EventType implements Payload.
func (*FragmentRejected) EventType() string { return TypeFragmentRejected }

// EventSubject implements Payload.
func (p *FragmentRejected) EventSubject() string { return "rejections/" + p.User + "/" + p.Agent }

// EventType implements Payload.
func (*PolicySet) EventType() string { return TypePolicySet }

// EventSubject implements Payload.
func (p *PolicySet) EventSubject() string {
	return PolicySubjectPrefix + p.Target + "/" + p.Scope.Key()
}

// EventType implements Payload.
func (*MemoryRead) EventType() string { return TypeMemoryRead }

// EventSubject implements Payload.
func (p *MemoryRead) EventSubject() string { return "reads/" + p.User + "/" + p.Agent }

// PolicySubjectPrefix is the subject prefix of every policy change; reads
// fence on it as they do on grants.
const PolicySubjectPrefix = "policies/"

// Key names the scope as subject tokens: global, agent/a, user/u or
// user-agent/u/a.
func (s PolicyScope) Key() string {
	switch {
	case s.User != "" && s.Agent != "":
		return "user-agent/" + s.User + "/" + s.Agent
	case s.User != "":
		return "user/" + s.User
	case s.Agent != "":
		return "agent/" + s.Agent
	default:
		return "global"
	}
}
