package events

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// envelope member indexes, in the order fastEnvelope keeps their values.
const (
	mSpecVersion = iota
	mID
	mSource
	mType
	mSubject
	mDataContentType
	mDataSchema
	mActor
	mCorrelationID
	mCausationID
	mTime
	mSchemaVersion
	mData
	memberCount
	stringMembers = mCausationID + 1 // members before this are plain strings
)

// memberIndex maps an envelope member name to its index; -1 for a name
// the envelope does not have.
func memberIndex(name []byte) int {
	switch string(name) { // compiled to a comparison, no allocation
	case "specversion":
		return mSpecVersion
	case "id":
		return mID
	case "source":
		return mSource
	case "type":
		return mType
	case "subject":
		return mSubject
	case "datacontenttype":
		return mDataContentType
	case "dataschema":
		return mDataSchema
	case "actor":
		return mActor
	case "correlationid":
		return mCorrelationID
	case "causationid":
		return mCausationID
	case "time":
		return mTime
	case "schemaversion":
		return mSchemaVersion
	case "data":
		return mData
	}
	return -1
}

// fastEnvelope decodes the envelope of raw in one pass over its bytes,
// for the shape cmem itself writes: no escapes in names or envelope
// strings, a time in UTC, a small schema version. It answers only when it
// is certain: ok means decodeEnvelope's generic path would return the same
// Envelope with no error; anything unusual (an escape, a duplicate, an
// error of any kind) is false and left to that path, which has the
// verdict and the message. TestFastEnvelopeAgreesWithDecoder and
// FuzzFastEnvelope hold the two to the same results.
func fastEnvelope(raw []byte) (Envelope, bool) {
	e, _, ok := fastEnvelopeChecked(raw, nil)
	return e, ok
}

// fastEnvelopeChecked is fastEnvelope that, given fast (the data checks by
// type and version), also checks the data against its schema in the same
// pass when the type and version come before it, as cmem writes them:
// checked says the data is certainly valid. A data check that is unsure
// costs a second walk with the plain syntax check, so ok means the same
// as fastEnvelope's either way: the scan accepts only data the library
// decodes (FuzzScanCheck), which is the generic path's verdict too.
func fastEnvelopeChecked(raw []byte, fast map[specKey]*fastCheck) (e Envelope, checked, ok bool) {
	var span [memberCount][2]int
	var seen uint32
	s := scanner{b: raw}
	s.ws()
	if !s.eat('{') {
		return Envelope{}, false, false
	}
	for first := true; ; first = false {
		s.ws()
		if first && s.eat('}') {
			break
		}
		name, ok := s.plainString()
		if !ok {
			return Envelope{}, false, false
		}
		m := memberIndex(name)
		if m < 0 || seen&(1<<m) != 0 {
			return Envelope{}, false, false
		}
		seen |= 1 << m
		s.ws()
		if !s.eat(':') {
			return Envelope{}, false, false
		}
		s.ws()
		start := s.i
		switch m {
		case mData:
			ok = s.peek() == '{'
			if n := dataCheck(raw, &span, seen, fast); ok && n != nil {
				checked = n.scan(&s, 0)
			}
			if ok && !checked {
				s.i = start
				ok = s.value(0)
			}
		case mSchemaVersion:
			ok = s.smallInt()
		default:
			_, ok = s.plainString()
		}
		if !ok {
			return Envelope{}, false, false
		}
		span[m] = [2]int{start, s.i}
		s.ws()
		if s.eat('}') {
			break
		}
		if !s.eat(',') {
			return Envelope{}, false, false
		}
	}
	s.ws()
	if s.i != len(raw) {
		return Envelope{}, false, false
	}
	e, ok = buildEnvelope(raw, &span, seen)
	return e, checked && ok, ok
}

// dataCheck is the data check of the type and version already read, or
// nil.
func dataCheck(raw []byte, span *[memberCount][2]int, seen uint32, fast map[specKey]*fastCheck) *fastCheck {
	const need = 1<<mType | 1<<mSchemaVersion
	if fast == nil || seen&need != need {
		return nil
	}
	typ := raw[span[mType][0]+1 : span[mType][1]-1]
	return fast[specKey{string(typ), atoiSmall(raw[span[mSchemaVersion][0]:span[mSchemaVersion][1]])}]
}

// buildEnvelope makes the Envelope out of the member spans fastEnvelope
// found, and checks it with the same rules as the generic path.
func buildEnvelope(raw []byte, span *[memberCount][2]int, seen uint32) (Envelope, bool) {
	// The string members share one allocation: they are short, and a
	// projection that keeps one (an id) keeps a few hundred bytes, not
	// the whole event.
	var sb strings.Builder
	n := 0
	for m := range stringMembers {
		n += span[m][1] - span[m][0]
	}
	sb.Grow(n)
	for m := range stringMembers {
		if seen&(1<<m) != 0 {
			sb.Write(raw[span[m][0]+1 : span[m][1]-1])
		}
	}
	all, off := sb.String(), 0
	var str [stringMembers]string
	for m := range stringMembers {
		if seen&(1<<m) != 0 {
			l := span[m][1] - span[m][0] - 2
			str[m], off = all[off:off+l], off+l
		}
	}
	var w wireEnvelope
	if seen&(1<<mTime) != 0 && !utcTime(raw[span[mTime][0]+1:span[mTime][1]-1], &w.Time) {
		return Envelope{}, false
	}
	if seen&(1<<mSchemaVersion) != 0 {
		w.SchemaVersion = atoiSmall(raw[span[mSchemaVersion][0]:span[mSchemaVersion][1]])
	}
	if seen&(1<<mData) != 0 {
		w.Data = jsontext.Value(raw[span[mData][0]:span[mData][1]])
	}
	w.SpecVersion, w.ID, w.Source, w.Type = str[mSpecVersion], str[mID], str[mSource], str[mType]
	w.Subject, w.DataContentType, w.Actor = str[mSubject], str[mDataContentType], str[mActor]
	if w.check(str[mCorrelationID], str[mCausationID]) != nil {
		return Envelope{}, false
	}
	return Envelope{
		SpecVersion: w.SpecVersion, ID: w.ID, Source: w.Source, Type: w.Type, SchemaVersion: w.SchemaVersion,
		Subject: w.Subject, Time: w.Time, DataContentType: w.DataContentType, DataSchema: str[mDataSchema],
		Actor: w.Actor, CorrelationID: str[mCorrelationID], CausationID: str[mCausationID],
		Data: json.RawMessage(append([]byte(nil), w.Data...)),
	}, true
}

// utcTime decodes b, which must read YYYY-MM-DDTHH:MM:SS[.frac]Z: for
// that shape time.Time.UnmarshalText, which the generic decoder uses, is
// exactly its verdict and value (its extra RFC 3339 checks all hold).
func utcTime(b []byte, t *time.Time) bool {
	const shape = "0000-00-00T00:00:00"
	if len(b) < len(shape)+1 || b[len(b)-1] != 'Z' {
		return false
	}
	for i := range len(shape) {
		if d := shape[i] == '0'; d != isDigit(b[i]) || !d && b[i] != shape[i] {
			return false
		}
	}
	if frac := b[len(shape) : len(b)-1]; len(frac) > 0 {
		if len(frac) < 2 || frac[0] != '.' {
			return false
		}
		for _, c := range frac[1:] {
			if !isDigit(c) {
				return false
			}
		}
	}
	return t.UnmarshalText(b) == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// atoiSmall is the value of the digits smallInt accepted.
func atoiSmall(b []byte) int {
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n
}

// validUTF8 is utf8.Valid, named for what the scanner asks of it.
func validUTF8(b []byte) bool { return utf8.Valid(b) }
