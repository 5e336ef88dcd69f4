package gateway

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/domain"
)

// FuzzDecodeBody: the body decoder every handler and the NATS ingress use
// never panics, fails only with ErrInvalid, and accepts only documents
// encoding/json accepts, without a repeated or case-colliding key.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{`{"text":"hi"}`, `{"a":1,"A":2}`, `{"a":{"b":[{"c":1,"c":2}]}}`, `[1,2]`, `{"a":1} {}`, ``, `{`, `"\u00e9"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v map[string]any
		err := decodeBytes(raw, &v, false)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error not ErrInvalid: %v", err)
			}
			return
		}
		var plain any
		if json.Unmarshal(raw, &plain) != nil {
			t.Fatalf("accepted what encoding/json refuses: %q", raw)
		}
		var q BusQuery
		_ = decodeBytes(raw, &q, true)
	})
}

// FuzzTimeAndWait: query parameters parse or fail with ErrInvalid; an
// accepted time is inside the representable range, an accepted wait is
// within [0, limit].
func FuzzTimeAndWait(f *testing.F) {
	for _, s := range []string{"2026-11-22T10:00:00Z", "1500-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "Inf", "NaN", "-1", "1e300", "0.5"} {
		f.Add(s)
	}
	const limit = time.Minute
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := parseTime("at", s); err == nil {
			if tm.Before(minTime) || tm.After(maxTime) {
				t.Fatalf("%q parsed to %v, out of range", s, tm)
			}
			_ = tm.UnixNano()
		} else if !errors.Is(err, domain.ErrInvalid) {
			t.Fatal(err)
		}
		if d, err := parseWait(s, limit); err == nil {
			if d < 0 || d > limit {
				t.Fatalf("%q waits %v", s, d)
			}
		} else if !errors.Is(err, domain.ErrInvalid) {
			t.Fatal(err)
		}
		if tok := bearer(s); tok != strings.TrimSpace(tok) {
			t.Fatalf("bearer(%q) = %q keeps spaces", s, tok)
		}
	})
}
