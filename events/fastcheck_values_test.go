package events

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileOne compiles a schema document the way NewValidator does.
func compileOne(t *testing.T, doc string) *jsonschema.Schema {
	t.Helper()
	d, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://s.json", d); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://s.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNativeValueChecksNeverAcceptWhatTheLibraryRejects: the enum and
// date-time checks are compiled natively, and on random strings near
// valid ones they say "valid" only where the library does; they also
// accept the times Go writes.
func TestNativeValueChecksNeverAcceptWhatTheLibraryRejects(t *testing.T) {
	dt := compileOne(t, `{"type":"string","format":"date-time"}`)
	enum := compileOne(t, `{"enum":["private","shared","x y"]}`)
	content := compileOne(t, `{"type":"string","contentEncoding":"base64"}`)
	for _, s := range []*jsonschema.Schema{dt, enum, content} {
		if f := compileFast(s); f.kind == kindDelegate {
			t.Fatalf("schema %v compiled to a delegation", s)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	base := []string{"2026-02-28T23:59:59Z", "2024-02-29T00:00:00.123456789Z", "2026-11-25T03:10:00Z",
		"2025-02-29T00:00:00Z", "2026-04-31T10:00:00Z", "2026-12-31T23:59:60Z", "2026-01-01T00:00:00+01:00",
		"2026-01-01t00:00:00z", "private", "shared", "x y", "notbase64!", ""}
	const alphabet = "0123456789-:.TZtz+ prisvhaed"
	agree := func(s *jsonschema.Schema, v any) {
		raw, _ := json.Marshal(v)
		lib := s.Validate(v) == nil
		if fast := compileFast(s).valid(raw); fast && !lib {
			t.Fatalf("fast check accepts %s, the library rejects it", raw)
		}
	}
	for i := 0; i < 20000; i++ {
		b := []byte(base[rng.IntN(len(base))])
		for range rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			switch j := rng.IntN(len(b)); rng.IntN(3) {
			case 0:
				b[j] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:j], b[j+1:]...)
			default:
				b = append(b[:j], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[j:]...)...)
			}
		}
		for _, s := range []*jsonschema.Schema{dt, enum, content} {
			agree(s, string(b))
		}
	}
	for _, s := range []*jsonschema.Schema{dt, enum} {
		for _, v := range []any{1.0, true, nil, []any{"shared"}, map[string]any{}} {
			agree(s, v)
		}
	}
	for i := 0; i < 2000; i++ {
		at := time.Unix(rng.Int64N(1<<35), rng.Int64N(1e9)).UTC()
		raw, _ := json.Marshal(at)
		if !compileFast(dt).valid(raw) {
			t.Fatalf("fast check unsure of %s, a time Go wrote", raw)
		}
	}
	for _, v := range []string{"private", "shared", "x y"} {
		if raw, _ := json.Marshal(v); !compileFast(enum).valid(raw) {
			t.Fatalf("fast check unsure of enum value %s", raw)
		}
	}
}
