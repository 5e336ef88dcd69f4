package events

// TypeFragmentSuperseded is the wire name of FragmentSuperseded.
const TypeFragmentSuperseded = "cmem.fragment.superseded"

// FragmentSuperseded records that New, just written by User through Agent,
// is a version of the same fact as Old (same subject and attribute): the
// two are versions of one fact from then on, and for each reader the
// version current at a time is the latest observed one that reader may
// read (see docs/memory.md). Old was the writer's current version, one it
// could read through Agent when New was written. Agents and Resources are
// New's provenance; Decision says what decided (a rule or a model). It
// carries ids only, no content.
type FragmentSuperseded struct {
	Old       string   `json:"old"`
	New       string   `json:"new"`
	User      string   `json:"user"`
	Agent     string   `json:"agent"`
	Tier      string   `json:"tier"`
	Agents    []string `json:"agents"`
	Resources []string `json:"resources"`
	Decision  string   `json:"decision"`
}

// EventType implements Payload.
func (*FragmentSuperseded) EventType() string { return TypeFragmentSuperseded }

// EventSubject implements Payload: the superseding fragment's subject, so
// fencing on a fragment's writes covers its supersession.
func (p *FragmentSuperseded) EventSubject() string { return "fragments/" + p.User + "/" + p.New }
