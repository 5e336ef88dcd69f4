package events

import "time"

// The fast decoders of the fragment and read events, which with the query
// events are most of an audit projector's log (a fragment written, a
// memory read and a delivery are half of its events) and what a rebuild
// decodes again. What they do not read (an admission's scores, which are
// fractions) goes to jsonv2 whole, as for the other fast types.

func (p *FragmentWritten) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "id":
		return s.str(&p.ID)
	case "key":
		return s.str(&p.Key)
	case "value":
		return s.str(&p.Value)
	case "tier":
		return s.str(&p.Tier)
	case "user":
		return s.str(&p.User)
	case "agents":
		return s.strs(&p.Agents)
	case "resources":
		return s.strs(&p.Resources)
	case "created_at":
		return s.time(&p.CreatedAt)
	case "source_event":
		return s.str(&p.SourceEvent)
	case "query_id":
		return s.str(&p.QueryID)
	case "derived_from":
		return s.strs(&p.DerivedFrom)
	case "provenance":
		return s.str(&p.Provenance)
	case "policy":
		return s.into(&p.Policy)
	case "embedding":
		return optional(s, &p.Embedding)
	case "observed_at":
		return optionalTime(s, &p.ObservedAt)
	case "time_refs":
		return objects(s, &p.TimeRefs)
	}
	return false
}

func (p *MemoryRead) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "user":
		return s.str(&p.User)
	case "agent":
		return s.str(&p.Agent)
	case "query":
		return s.str(&p.Query)
	case "query_id":
		return s.str(&p.QueryID)
	case "private":
		return s.strs(&p.Private)
	case "shared":
		return s.strs(&p.Shared)
	case "graph_revision":
		return s.unsigned(&p.GraphRevision)
	case "k_user":
		return s.integer(&p.KUser)
	case "k_cross":
		return s.integer(&p.KCross)
	case "policy":
		return s.into(&p.Policy)
	}
	return false
}

func (p *QueryDelivered) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "query_id":
		return s.str(&p.QueryID)
	case "user":
		return s.str(&p.User)
	case "channel":
		return s.str(&p.Channel)
	case "status":
		return s.str(&p.Status)
	case "graph_revision":
		return s.unsigned(&p.GraphRevision)
	case "label":
		return s.into(&p.Label)
	case "withheld":
		return objects(s, &p.Withheld)
	}
	return false
}

// admission (fractions) goes to jsonv2.
func (p *PolicyTrace) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "kind":
		return s.str(&p.Kind)
	case "scope":
		return s.str(&p.Scope)
	case "event":
		return s.str(&p.Event)
	case "transformed":
		return s.boolean(&p.Transformed)
	case "notes":
		return s.strs(&p.Notes)
	}
	return false
}

func (p *Embedding) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "model":
		return s.str(&p.Model)
	case "dims":
		return s.integer(&p.Dims)
	case "vector":
		return s.str(&p.Vector)
	}
	return false
}

func (p *TimeRef) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "text":
		return s.str(&p.Text)
	case "start":
		return s.str(&p.Start)
	case "end":
		return s.str(&p.End)
	case "grain":
		return s.str(&p.Grain)
	}
	return false
}

func (p *Withheld) fastMember(s *scanner, name []byte) bool {
	return s.pair(name, "part", &p.Part, "reason", &p.Reason)
}

// into reads an object into dst, a struct member that is fresh; null
// leaves it zero, as jsonv2 does.
func (s *scanner) into(dst fastMember) bool {
	return s.null() || s.members(dst)
}

// optional reads an object into a new *T; null leaves nil.
func optional[T any, PT interface {
	*T
	fastMember
}](s *scanner, dst **T) bool {
	if s.null() {
		return true
	}
	v := PT(new(T))
	if !s.members(v) {
		return false
	}
	*dst = v
	return true
}

// objects reads an array of objects; [] is an empty, non-nil slice and
// null leaves nil, as for strs. The first pass checks and counts the
// elements, so that the slice never grows under the pointers the second
// pass hands to the strings table. A null element goes to jsonv2.
func objects[T any, PT interface {
	*T
	fastMember
}](s *scanner, dst *[]T) bool {
	if s.null() {
		return true
	}
	if !s.eat('[') {
		return false
	}
	start, n := s.i, 0
	s.ws()
	if !s.eat(']') {
		for {
			s.ws()
			if s.peek() != '{' || !s.value(1) {
				return false
			}
			n++
			s.ws()
			if s.eat(']') {
				break
			}
			if !s.eat(',') {
				return false
			}
		}
	}
	end := s.i
	out := make([]T, n)
	s.i = start
	for i := range out {
		s.ws()
		if i > 0 {
			s.i++ // the comma the first pass saw
			s.ws()
		}
		if !s.members(PT(&out[i])) {
			return false
		}
	}
	s.i, *dst = end, out
	return true
}

// time reads a time in the one shape utcTime is certain of (UTC, RFC
// 3339); jsonv2 reads it with the same time.Time.UnmarshalText, whose
// verdict its own extra checks do not change for that shape.
func (s *scanner) time(dst *time.Time) bool {
	body, ok := s.plainString()
	return ok && utcTime(body, dst)
}

// optionalTime reads a time into a new *time.Time; null leaves nil.
func optionalTime(s *scanner, dst **time.Time) bool {
	if s.null() {
		return true
	}
	t := new(time.Time)
	if !s.time(t) {
		return false
	}
	*dst = t
	return true
}

// boolean reads true or false; null leaves false, as jsonv2 does.
func (s *scanner) boolean(dst *bool) bool {
	for _, lit := range []string{"true", "false", "null"} {
		if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
			s.i += len(lit)
			*dst = lit == "true"
			return true
		}
	}
	return false
}
