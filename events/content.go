package events

// Erased is what a content field reads as once the key it was sealed under
// is destroyed (package shred): the event keeps its ids, provenance and
// times, its content is gone.
const Erased = "[erased]"

// Content is implemented by payloads that carry a data subject's content
// (texts a user or a model wrote). The log seals the fields ContentFields
// points at under the key of DataSubject; the reading side opens them, so
// domain code only ever sees plaintext (or Erased).
type Content interface {
	Payload
	// DataSubject is whose content this is: a user, and the fragment or
	// query it belongs to, whose own key it is sealed under.
	DataSubject() DataSubject
	// ContentFields are pointers to the payload's content strings.
	ContentFields() []*string
}

// ContentObjects is implemented by payloads with free-form content objects
// (a tool call's arguments): each is sealed as a whole and stored as
// {"sealed": "..."}.
type ContentObjects interface {
	ContentObjects() []*map[string]any
}

// ContentErased is implemented by payloads that must drop more than their
// content fields when those are erased (an embedding of erased text).
type ContentErased interface {
	ContentErased()
}

// DataSubject names the key content is sealed under: the fragment's when
// Fragment is set, else the query's when Query is set, else the user's.
// Per-fragment and per-query keys are what let one fragment, or every
// answer derived from an erased fragment, be erased alone.
type DataSubject struct {
	User     string
	Fragment string
	Query    string
}

// HasContent reports whether events of type t carry content.
func HasContent(t string) bool { return contentTypes[t] }

var contentTypes = map[string]bool{
	TypeFragmentWritten: true, TypeMemoryRead: true, TypeGraphRead: true, TypeQuerySubmitted: true, TypeAgentSelected: true,
	TypeResourceCalled: true, TypeAgentResponded: true, TypeQueryAnswered: true,
}

// DataSubject implements Content: a fragment is sealed under its own key.
func (p *FragmentWritten) DataSubject() DataSubject { return DataSubject{User: p.User, Fragment: p.ID} }

// ContentFields implements Content.
func (p *FragmentWritten) ContentFields() []*string {
	fs := []*string{&p.Key, &p.Value}
	for i := range p.TimeRefs {
		r := &p.TimeRefs[i]
		fs = append(fs, &r.Text, &r.Start, &r.End, &r.Grain)
	}
	if p.Embedding != nil {
		fs = append(fs, &p.Embedding.Vector)
	}
	return fs
}

// ContentErased implements ContentErased: the embedding of an erased key
// and the time expressions of its text are dropped with it.
func (p *FragmentWritten) ContentErased() { p.Embedding, p.TimeRefs = nil, nil }

// DataSubject implements Content.
func (p *MemoryRead) DataSubject() DataSubject { return DataSubject{User: p.User, Query: p.QueryID} }

// ContentFields implements Content.
func (p *MemoryRead) ContentFields() []*string { return []*string{&p.Query} }

// DataSubject implements Content.
func (p *GraphRead) DataSubject() DataSubject { return DataSubject{User: p.User, Query: p.QueryID} }

// ContentFields implements Content.
func (p *GraphRead) ContentFields() []*string { return []*string{&p.Query} }

// DataSubject implements Content.
func (p *QuerySubmitted) DataSubject() DataSubject { return DataSubject{User: p.User, Query: p.ID} }

// ContentFields implements Content.
func (p *QuerySubmitted) ContentFields() []*string { return []*string{&p.Text} }

// DataSubject implements Content.
func (p *AgentSelected) DataSubject() DataSubject { return DataSubject{User: p.User, Query: p.QueryID} }

// ContentFields implements Content.
func (p *AgentSelected) ContentFields() []*string { return []*string{&p.Subquery} }

// DataSubject implements Content.
func (p *ResourceCalled) DataSubject() DataSubject {
	return DataSubject{User: p.User, Query: p.QueryID}
}

// ContentFields implements Content: an error message may quote the call.
func (p *ResourceCalled) ContentFields() []*string { return []*string{&p.Error} }

// ContentObjects implements ContentObjects.
func (p *ResourceCalled) ContentObjects() []*map[string]any { return []*map[string]any{&p.Arguments} }

// DataSubject implements Content.
func (p *AgentResponded) DataSubject() DataSubject {
	return DataSubject{User: p.User, Query: p.QueryID}
}

// ContentFields implements Content.
func (p *AgentResponded) ContentFields() []*string { return []*string{&p.Subquery, &p.Response} }

// DataSubject implements Content.
func (p *QueryAnswered) DataSubject() DataSubject { return DataSubject{User: p.User, Query: p.QueryID} }

// ContentFields implements Content.
func (p *QueryAnswered) ContentFields() []*string { return []*string{&p.Answer} }
