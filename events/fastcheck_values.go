package events

import (
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileValue is the native check of a string subschema the generic walk
// does not handle, or nil: an enum of strings (tier, provenance, channel,
// role, ...) and format date-time (created_at, expires_at, ...). Left to
// the library they cost a decode into an interface and a schema walk on
// every event that carries them, which most rebuilt events do. known is
// whether s has no keyword besides type, enum and format.
func compileValue(s *jsonschema.Schema, known bool) *fastCheck {
	if !known || (s.Enum == nil && s.Format == nil) {
		return nil
	}
	if s.Types != nil {
		if t := s.Types.ToStrings(); len(t) != 1 || t[0] != "string" {
			return nil
		}
	}
	if s.Pattern != nil || s.MinLength != nil || s.MaxLength != nil {
		return nil
	}
	switch {
	case s.Enum != nil && s.Format == nil:
		set := make(map[string]struct{}, len(s.Enum.Values))
		for _, v := range s.Enum.Values {
			str, ok := v.(string)
			if !ok {
				return nil
			}
			set[str] = struct{}{}
		}
		return &fastCheck{kind: kindString, minLen: -1, maxLen: -1, enum: set}
	case s.Enum == nil && s.Format.Name == "date-time" && s.Types != nil:
		return &fastCheck{kind: kindString, minLen: -1, maxLen: -1, dateTime: true}
	}
	return nil
}

// certainDateTime reports whether s is a date-time every RFC 3339 check
// accepts: YYYY-MM-DDTHH:MM:SS, an optional fraction, and Z, with a real
// calendar day and no leap second; the form Go writes a UTC time in.
// Anything else (offsets, lower case, second 60) is left to the library.
func certainDateTime(s []byte) bool {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return false
	}
	y, ok1 := digits(s[0:4])
	mo, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	h, ok4 := digits(s[11:13])
	mi, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return false
	}
	// The last day of the month: day 0 of the next one.
	if d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return false
	}
	rest := s[19:]
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	return len(rest) == 1 && rest[0] == 'Z'
}

// digits parses b, ASCII digits only.
func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return n, true
}
