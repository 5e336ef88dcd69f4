package events

import (
	"bytes"
	"math"
	"strings"
	"sync"
)

// fastMember is a payload type that decodes itself from the scanner one
// member at a time, without reflection: the query and access events that
// are most of a log, decoded again by every rebuild and by the audit
// projector. fastMember reads the value of member name at s and reports
// false for a name it does not know or a value it is not certain the
// generic decoder (jsonv2) reads the same way; Decode then decodes the
// whole payload with jsonv2 on a fresh value. TestFastDecodeAgrees holds
// the two decoders to the same result.
type fastMember interface {
	fastMember(s *scanner, name []byte) bool
}

// fastDecode decodes data into p, which is fresh; false leaves p in an
// undefined state. The short strings of p share one allocation (one
// allocation instead of one per member is most of what decoding costs
// once reflection is gone).
func fastDecode(data []byte, p fastMember) bool {
	pend := pendingPool.Get().(*pendingStrings)
	defer pend.release()
	s := scanner{b: data, pend: pend}
	s.ws()
	if !s.members(p) {
		return false
	}
	s.ws()
	if s.i != len(s.b) {
		return false
	}
	pend.resolve()
	return true
}

// pendingPool recycles the tables: one declared in fastDecode is moved to
// the heap by escape analysis (the readers store pointers into it), and
// allocating and zeroing it on every decode cost more than the reflection
// it replaces.
var pendingPool = sync.Pool{New: func() any { return new(pendingStrings) }}

// release empties p, so that the pool keeps no payload or data alive, and
// returns it to the pool.
func (p *pendingStrings) release() {
	clear(p.refs[:p.n])
	p.n = 0
	pendingPool.Put(p)
}

// member reads member name of p. It calls each type's method directly,
// not through the interface, so that the scanner stays on the stack.
func (s *scanner) member(p fastMember, name []byte) bool {
	switch t := p.(type) {
	case *Label:
		return t.fastMember(s, name)
	case *QuerySubmitted:
		return t.fastMember(s, name)
	case *AgentSelected:
		return t.fastMember(s, name)
	case *AgentResponded:
		return t.fastMember(s, name)
	case *QueryAnswered:
		return t.fastMember(s, name)
	case *UserAgentGranted:
		return t.fastMember(s, name)
	case *UserAgentRevoked:
		return t.fastMember(s, name)
	case *AgentResourceGranted:
		return t.fastMember(s, name)
	case *AgentResourceRevoked:
		return t.fastMember(s, name)
	case *FragmentWritten:
		return t.fastMember(s, name)
	case *MemoryRead:
		return t.fastMember(s, name)
	case *QueryDelivered:
		return t.fastMember(s, name)
	case *PolicyTrace:
		return t.fastMember(s, name)
	case *Embedding:
		return t.fastMember(s, name)
	case *TimeRef:
		return t.fastMember(s, name)
	case *Withheld:
		return t.fastMember(s, name)
	}
	return false
}

// pendingStrings are string members read but not yet copied out of the
// data: resolve copies them all into one string.
type pendingStrings struct {
	n    int
	refs [64]struct {
		dst  *string
		body []byte
	}
}

// sharedMax is the longest string that shares the payload's allocation:
// a longer one (an agent's answer, a query's text) has its own, so that a
// projection keeping an id or a name keeps a few hundred bytes alive, not
// the whole payload.
const sharedMax = 128

// add defers the copy of body into dst, or copies it at once when it is
// long or the table is full.
func (p *pendingStrings) add(dst *string, body []byte) {
	if len(body) == 0 {
		return // a fresh payload already holds ""
	}
	if len(body) > sharedMax || p.n == len(p.refs) {
		*dst = string(body)
		return
	}
	p.refs[p.n].dst, p.refs[p.n].body = dst, body
	p.n++
}

// resolve copies the deferred strings into one allocation.
func (p *pendingStrings) resolve() {
	size := 0
	for _, r := range p.refs[:p.n] {
		size += len(r.body)
	}
	var b strings.Builder
	b.Grow(size)
	for _, r := range p.refs[:p.n] {
		b.Write(r.body)
	}
	all, off := b.String(), 0
	for _, r := range p.refs[:p.n] {
		*r.dst, off = all[off:off+len(r.body)], off+len(r.body)
	}
}

// members reads an object into p. A repeated name (which jsonv2 refuses),
// a name with escapes or more than maxMembers members are refused.
func (s *scanner) members(p fastMember) bool {
	var names [maxMembers][]byte
	n := 0
	if !s.eat('{') {
		return false
	}
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		name, ok := s.plainString()
		if !ok || n == maxMembers {
			return false
		}
		for _, prev := range names[:n] {
			if bytes.Equal(prev, name) {
				return false
			}
		}
		names[n], n = name, n+1
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		if !s.member(p, name) {
			return false
		}
		s.ws()
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// str reads a string without escapes (null and escapes go to jsonv2).
func (s *scanner) str(dst *string) bool {
	body, ok := s.plainString()
	if ok {
		s.pend.add(dst, body)
	}
	return ok
}

// null reads a null, which jsonv2 decodes as the zero value: what a fresh
// payload already holds (encoding/json writes a nil slice as null).
func (s *scanner) null() bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		return false
	}
	s.i += len("null")
	return true
}

// strs reads an array of strings; [] is an empty, non-nil slice, as jsonv2
// makes it (it re-encodes as [], not null), and null leaves nil.
func (s *scanner) strs(dst *[]string) bool {
	if s.null() {
		return true
	}
	if !s.eat('[') {
		return false
	}
	// The first pass checks and counts the elements, so that the slice
	// never grows under the pointers the second pass hands to s.str.
	start := s.i
	n, ok := s.countStrings()
	if !ok {
		return false
	}
	end := s.i
	out := make([]string, n)
	s.i = start
	for i := range out {
		s.ws()
		if i > 0 {
			s.i++ // the comma countStrings saw
			s.ws()
		}
		s.str(&out[i])
	}
	s.i, *dst = end, out
	return true
}

// countStrings checks the rest of an array of strings after its opening
// bracket, up to and including the closing one, and counts the strings.
func (s *scanner) countStrings() (int, bool) {
	s.ws()
	if s.eat(']') {
		return 0, true
	}
	for n := 1; ; n++ {
		s.ws()
		if _, ok := s.plainString(); !ok {
			return 0, false
		}
		s.ws()
		if s.eat(']') {
			return n, true
		}
		if !s.eat(',') {
			return 0, false
		}
	}
}

// digits reads 1 to max digits without a leading zero and not followed by
// a fraction or an exponent, and returns their value.
func (s *scanner) digits(limit int) (uint64, bool) {
	start := s.i
	var v uint64
	for s.i < len(s.b) && isDigit(s.b[s.i]) {
		v = v*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	n := s.i - start
	if n == 0 || n > limit || (n > 1 && s.b[start] == '0') {
		return 0, false
	}
	switch s.peek() {
	case '.', 'e', 'E':
		return 0, false
	}
	return v, true
}

// integer reads an int (19 digits cannot overflow the uint64 they are
// summed in; the range is checked after).
func (s *scanner) integer(dst *int) bool {
	neg := s.eat('-')
	v, ok := s.digits(19)
	limit := uint64(math.MaxInt) // jsonv2 refuses what overflows int
	if neg {
		limit++
	}
	switch {
	case !ok || v > limit:
		return false
	case neg:
		*dst = int(-int64(v)) // math.MinInt wraps to itself, as wanted
	default:
		*dst = int(v)
	}
	return true
}

// unsigned reads a uint64 of at most 19 digits.
func (s *scanner) unsigned(dst *uint64) bool {
	v, ok := s.digits(19)
	if ok {
		*dst = v
	}
	return ok
}

// label reads a Label object into a new *Label; null leaves nil.
func (s *scanner) label(dst **Label) bool {
	if s.null() {
		return true
	}
	l := new(Label)
	if !s.members(l) {
		return false
	}
	*dst = l
	return true
}

func (l *Label) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "agents":
		return s.strs(&l.Agents)
	case "resources":
		return s.strs(&l.Resources)
	case "fragments":
		return s.strs(&l.Fragments)
	}
	return false
}

// as_of (a time) goes to jsonv2.
func (p *QuerySubmitted) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "id":
		return s.str(&p.ID)
	case "user":
		return s.str(&p.User)
	case "text":
		return s.str(&p.Text)
	case "channel":
		return s.str(&p.Channel)
	case "reply_subject":
		return s.str(&p.ReplySubject)
	}
	return false
}

func (p *AgentSelected) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "query_id":
		return s.str(&p.QueryID)
	case "user":
		return s.str(&p.User)
	case "round":
		return s.integer(&p.Round)
	case "agent":
		return s.str(&p.Agent)
	case "subquery":
		return s.str(&p.Subquery)
	case "offered":
		return s.strs(&p.Offered)
	case "label":
		return s.label(&p.Label)
	case "graph_revision":
		return s.unsigned(&p.GraphRevision)
	}
	return false
}

func (p *AgentResponded) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "query_id":
		return s.str(&p.QueryID)
	case "user":
		return s.str(&p.User)
	case "round":
		return s.integer(&p.Round)
	case "agent":
		return s.str(&p.Agent)
	case "subquery":
		return s.str(&p.Subquery)
	case "response":
		return s.str(&p.Response)
	case "resources":
		return s.strs(&p.Resources)
	case "fragments_read":
		return s.strs(&p.FragmentsRead)
	case "fragments_written":
		return s.strs(&p.FragmentsWritten)
	case "fragments_cited":
		return s.strs(&p.FragmentsCited)
	case "resource_calls":
		return s.integer(&p.ResourceCalls)
	case "refused":
		return s.str(&p.Refused)
	case "label":
		return s.label(&p.Label)
	case "graph_revision":
		return s.unsigned(&p.GraphRevision)
	}
	return false
}

func (p *QueryAnswered) fastMember(s *scanner, name []byte) bool {
	switch string(name) {
	case "query_id":
		return s.str(&p.QueryID)
	case "user":
		return s.str(&p.User)
	case "answer":
		return s.str(&p.Answer)
	case "rounds":
		return s.integer(&p.Rounds)
	case "agents":
		return s.strs(&p.Agents)
	case "fragments_read":
		return s.strs(&p.FragmentsRead)
	case "fragments_written":
		return s.strs(&p.FragmentsWritten)
	case "label":
		return s.label(&p.Label)
	}
	return false
}

// expires_at (a time) goes to jsonv2.
func (p *UserAgentGranted) fastMember(s *scanner, name []byte) bool {
	return s.pair(name, "user", &p.User, "agent", &p.Agent)
}

func (p *UserAgentRevoked) fastMember(s *scanner, name []byte) bool {
	return s.pair(name, "user", &p.User, "agent", &p.Agent)
}

// expires_at (a time) goes to jsonv2.
func (p *AgentResourceGranted) fastMember(s *scanner, name []byte) bool {
	return s.pair(name, "agent", &p.Agent, "resource", &p.Resource)
}

func (p *AgentResourceRevoked) fastMember(s *scanner, name []byte) bool {
	return s.pair(name, "agent", &p.Agent, "resource", &p.Resource)
}

// pair reads member name of a grant or revocation, whose members are two
// strings, a and b (any other member goes to jsonv2).
func (s *scanner) pair(name []byte, a string, va *string, b string, vb *string) bool {
	switch string(name) {
	case a:
		return s.str(va)
	case b:
		return s.str(vb)
	}
	return false
}
