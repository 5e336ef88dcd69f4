package events

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// marshalKnown is Marshal's fast path for the envelopes cmem builds itself
// (New): it writes the wire form straight from the Go fields and checks
// the envelope rules on those fields, instead of encoding with reflection
// and decoding the result again to check it. Per event that round trip was
// most of what an append cost in CPU (issue 28's profile).
//
// It answers only when it is sure: ok means raw is byte for byte what
// marshalChecked returns and marshalChecked would accept it. Anything it
// is not sure of (a string encoding/json would escape, data that is not
// compact, a non-UTF time, data the fast schema check is unsure of) is
// left to marshalChecked, which also words the errors.
// TestMarshalKnownMatchesChecked holds the two paths to the same bytes.
func (v *Validator) marshalKnown(e Envelope) (raw []byte, ok bool) {
	fast := v.fast[specKey{e.Type, e.SchemaVersion}]
	if fast == nil || !e.plainValid() {
		return nil, false
	}
	// encoding/json writes a time with its MarshalJSON; UTC only, so that
	// the decoder reads back the same instant without a zone to judge.
	if e.Time.Location() != time.UTC || e.Time.Year() < 1 || e.Time.Year() > 9999 {
		return nil, false
	}
	ts, err := e.Time.MarshalJSON()
	if err != nil {
		return nil, false
	}
	// Room for the members' names (about 170 bytes), the values and the
	// time, so that the buffer is allocated once.
	size := 200 + len(e.SpecVersion) + len(e.ID) + len(e.Source) + len(e.Type) + len(e.Subject) + len(ts) +
		len(e.DataContentType) + len(e.DataSchema) + len(e.Actor) + len(e.CorrelationID) + len(e.CausationID) + len(e.Data)
	buf := make([]byte, 0, size)
	buf = appendMember(buf, `{"specversion":`, e.SpecVersion)
	buf = appendMember(buf, `,"id":`, e.ID)
	buf = appendMember(buf, `,"source":`, e.Source)
	buf = appendMember(buf, `,"type":`, e.Type)
	buf = strconv.AppendInt(append(buf, `,"schemaversion":`...), int64(e.SchemaVersion), 10)
	buf = appendMember(buf, `,"subject":`, e.Subject)
	buf = append(append(buf, `,"time":`...), ts...)
	buf = appendMember(buf, `,"datacontenttype":`, e.DataContentType)
	if e.DataSchema != "" {
		buf = appendMember(buf, `,"dataschema":`, e.DataSchema)
	}
	buf = appendMember(buf, `,"actor":`, e.Actor)
	if e.CorrelationID != "" {
		buf = appendMember(buf, `,"correlationid":`, e.CorrelationID)
	}
	if e.CausationID != "" {
		buf = appendMember(buf, `,"causationid":`, e.CausationID)
	}
	buf = append(buf, `,"data":`...)
	if e.vouchedData() {
		// Written by the payload's own checked writer in New: compact,
		// nothing encoding/json would escape, valid against its schema
		// (selfChecking). Scanning it again would only repeat that.
		return append(append(buf, e.Data...), '}'), true
	}
	start := len(buf)
	out := bytes.NewBuffer(buf)
	if json.Compact(out, e.Data) != nil {
		return nil, false
	}
	buf = out.Bytes()
	data := buf[start:]
	// encoding/json compacts a RawMessage with HTML escaping: data holding
	// a character it would escape is left to it.
	if len(data) == 0 || data[0] != '{' || bytes.ContainsAny(data, "<>&\u2028\u2029") || !fast.valid(data) {
		return nil, false
	}
	return append(buf, '}'), true
}

// plainValid reports whether every string field of e is one encoding/json
// writes as is (so the decoded string is the same and its length rule can
// be checked here), and e satisfies the envelope rules that
// decodeEnvelope's check applies to what it decodes.
func (e *Envelope) plainValid() bool {
	for _, s := range [...]string{e.SpecVersion, e.ID, e.Source, e.Type, e.Subject, e.DataContentType, e.DataSchema, e.Actor, e.CorrelationID, e.CausationID} {
		if !plainJSON(s) {
			return false
		}
	}
	within := func(s string, lo, hi int) bool { return len(s) >= lo && len(s) <= hi }
	return e.SpecVersion == SpecVersion && within(e.ID, 1, 128) && within(e.Source, 1, 256) &&
		validType(e.Type) && e.SchemaVersion >= 1 && within(e.Subject, 1, 512) && !e.Time.IsZero() &&
		e.DataContentType == "application/json" && within(e.Actor, 1, 128) &&
		within(e.CorrelationID, 0, 128) && within(e.CausationID, 0, 128)
}

// plainJSON reports whether encoding/json writes s between quotes with no
// escape: valid UTF-8 without control characters, quotes, backslashes,
// HTML's <, > and &, or U+2028/U+2029.
func plainJSON(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return ascii || (utf8.ValidString(s) && !strings.ContainsAny(s, "\u2028\u2029"))
}

// appendMember appends key (with its punctuation) and s, quoted; s is
// plainJSON.
func appendMember(buf []byte, key, s string) []byte {
	buf = append(buf, key...)
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
