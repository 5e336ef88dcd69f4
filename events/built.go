package events

import (
	"encoding/json"
	"strconv"
	"time"
)

// selfChecking is a payload that writes its own data and checks, in the
// same pass and in Go, the rules of its schema on the fields it writes.
// New uses it instead of encoding/json and marks the envelope as vouched
// for, so that Marshal need not scan the data a second time against the
// schema (issue 28: that scan was 40% of building a grant's message).
//
// appendChecked answers ok only when the bytes it appended are exactly
// what json.Marshal writes for the payload and they are certainly valid
// against the payload's schema; anything else (an id outside the
// schema's pattern, a time not in UTC) is "not sure", and New then
// encodes with encoding/json and leaves the whole check to Marshal, as
// for every other type. TestBuiltEventsMatchTheirSchemas and
// FuzzBuiltEvents hold it to the schema files.
type selfChecking interface {
	appendChecked(buf []byte) ([]byte, bool)
}

// appendID appends key and id, quoted, and reports whether id is one the
// schemas' id pattern ^[A-Za-z0-9_-]{1,128}$ accepts; such an id has
// nothing encoding/json would escape.
func appendID(buf []byte, key, id string) ([]byte, bool) {
	if CheckID(id) != nil {
		return buf, false
	}
	return appendMember(buf, key, id), true
}

// appendExpiry appends key and t as encoding/json writes a time.Time,
// and reports whether that is certainly a JSON Schema date-time: UTC
// only, in the years Go writes as four digits.
func appendExpiry(buf []byte, key string, t time.Time) ([]byte, bool) {
	if t.Location() != time.UTC || t.Year() < 1 || t.Year() > 9999 {
		return buf, false
	}
	buf = append(buf, key...)
	start := len(buf)
	buf = t.AppendFormat(append(buf, '"'), time.RFC3339Nano)
	if !certainDateTime(buf[start+1:]) {
		return buf, false
	}
	return append(buf, '"'), true
}

// appendEdge appends an edge's two ids and its optional expiry: the shape
// of every grant and revoke.
func appendEdge(buf []byte, fromKey, from, toKey, to string, expires *time.Time) ([]byte, bool) {
	buf, ok1 := appendID(buf, fromKey, from)
	buf, ok2 := appendID(buf, toKey, to)
	if !ok1 || !ok2 {
		return buf, false
	}
	if expires != nil {
		var ok bool
		if buf, ok = appendExpiry(buf, `,"expires_at":`, *expires); !ok {
			return buf, false
		}
	}
	return append(buf, '}'), true
}

// appendExpired appends an expiry event's fields; the schema wants the
// grant's revision ≥ 1, and it is kept where a float64 reads it exactly.
func appendExpired(buf []byte, fromKey, from, toKey, to string, rev uint64, at time.Time) ([]byte, bool) {
	buf, ok1 := appendID(buf, fromKey, from)
	buf, ok2 := appendID(buf, toKey, to)
	if !ok1 || !ok2 || rev < 1 || rev > 1<<53 {
		return buf, false
	}
	buf = strconv.AppendUint(append(buf, `,"grant_revision":`...), rev, 10)
	buf, ok := appendExpiry(buf, `,"expires_at":`, at)
	return append(buf, '}'), ok
}

func (p *UserAgentGranted) appendChecked(buf []byte) ([]byte, bool) {
	return appendEdge(buf, `{"user":`, p.User, `,"agent":`, p.Agent, p.ExpiresAt)
}

func (p *UserAgentRevoked) appendChecked(buf []byte) ([]byte, bool) {
	return appendEdge(buf, `{"user":`, p.User, `,"agent":`, p.Agent, nil)
}

func (p *AgentResourceGranted) appendChecked(buf []byte) ([]byte, bool) {
	return appendEdge(buf, `{"agent":`, p.Agent, `,"resource":`, p.Resource, p.ExpiresAt)
}

func (p *AgentResourceRevoked) appendChecked(buf []byte) ([]byte, bool) {
	return appendEdge(buf, `{"agent":`, p.Agent, `,"resource":`, p.Resource, nil)
}

func (p *UserAgentExpired) appendChecked(buf []byte) ([]byte, bool) {
	return appendExpired(buf, `{"user":`, p.User, `,"agent":`, p.Agent, p.GrantRevision, p.ExpiresAt)
}

func (p *AgentResourceExpired) appendChecked(buf []byte) ([]byte, bool) {
	return appendExpired(buf, `{"agent":`, p.Agent, `,"resource":`, p.Resource, p.GrantRevision, p.ExpiresAt)
}

// encodeData is New's encoding of p: its own checked writer when it has
// one and vouches for the result, else encoding/json (vouched false).
func encodeData(p Payload) (data []byte, vouched bool, err error) {
	if sc, ok := p.(selfChecking); ok {
		if data, ok := sc.appendChecked(make([]byte, 0, 96)); ok {
			return data, true, nil
		}
	}
	data, err = json.Marshal(p)
	return data, false, err
}

// vouch is the data New wrote with a payload's checked writer and the
// (type, version) whose schema it was checked against.
type vouch struct {
	data []byte
	key  specKey
}

// vouchedData reports whether e.Data is still the very slice New wrote
// and vouched for, under the same type and version: an envelope whose
// data or type was replaced, or one decoded from anywhere (the log, a bus
// message, an import file), carries no vouch and is checked in full.
func (e *Envelope) vouchedData() bool {
	v := &e.vouched
	return len(e.Data) > 0 && len(v.data) == len(e.Data) && &v.data[0] == &e.Data[0] &&
		v.key == specKey{e.Type, e.SchemaVersion}
}
