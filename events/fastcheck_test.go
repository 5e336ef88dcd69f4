package events

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// exampleOf builds an instance of s meant to be valid (checked by the
// caller): every property present, one item per array, the first enum
// value, the smallest candidate string the pattern takes.
func exampleOf(s *jsonschema.Schema, variant int) any {
	if s.Enum != nil && len(s.Enum.Values) > 0 {
		return s.Enum.Values[0]
	}
	var typ string
	if s.Types != nil && len(s.Types.ToStrings()) > 0 {
		typ = s.Types.ToStrings()[0]
	}
	switch typ {
	case "string":
		return exampleString(s, variant)
	case "integer", "number":
		if s.Minimum != nil {
			f, _ := s.Minimum.Float64()
			return f
		}
		return 1.0
	case "boolean":
		return true
	case "array":
		var out []any
		if s.Items2020 != nil {
			for i := range max(1, minOr(s.MinItems)) {
				out = append(out, exampleOf(s.Items2020, variant+i))
			}
		}
		return out
	case "object":
		out := map[string]any{}
		for name, sub := range s.Properties {
			out[name] = exampleOf(sub, variant)
		}
		return out
	}
	return nil
}

func minOr(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func exampleString(s *jsonschema.Schema, variant int) string {
	if s.Format != nil && s.Format.Name == "date-time" {
		return "2026-01-01T00:00:00Z"
	}
	candidates := []string{fmt.Sprintf("a%d", variant), fmt.Sprintf("cmem.x%c.y", 'a'+variant%26),
		strings.Repeat(fmt.Sprintf("%x", variant%16), 64), fmt.Sprintf("x/y%d", variant), "private", "shared"}
	for _, c := range candidates {
		if s.Pattern == nil || s.Pattern.MatchString(c) {
			for len(c) < minOr(s.MinLength) {
				c += "a"
			}
			return c
		}
	}
	return fmt.Sprintf("v%d", variant)
}

// mutations are data close to valid: each property removed, retyped,
// emptied, too long, badly patterned; unknown and duplicate members;
// escapes and multi-byte runes where lengths are counted.
func mutations(valid map[string]any) [][]byte {
	raw, _ := json.Marshal(valid)
	out := [][]byte{raw, []byte(`[]`), []byte(`"x"`), []byte(`1`), []byte(`null`), []byte(`{}`),
		[]byte(string(raw[:len(raw)-1]) + `,"zz_unknown":1}`), []byte(string(raw) + ` {}`)}
	names := make([]string, 0, len(valid))
	for name := range valid {
		names = append(names, name)
	}
	sort.Strings(names)
	replacements := []any{nil, 12, 1.5, -1, 0, true, "", "bad value!", "é", strings.Repeat("é", 129),
		strings.Repeat("a", 9000), []any{}, []any{"a", "a"}, []any{1}, map[string]any{}, "<\u2028>"}
	for _, name := range names {
		m := cloneMap(valid)
		delete(m, name)
		b, _ := json.Marshal(m)
		out = append(out, b)
		dup := string(raw[:len(raw)-1]) + fmt.Sprintf(`,%q:%s}`, name, jsonOf(valid[name]))
		out = append(out, []byte(dup))
		for _, r := range replacements {
			m := cloneMap(valid)
			m[name] = r
			b, _ := json.Marshal(m)
			out = append(out, b)
		}
		if s, ok := valid[name].(string); ok && s != "" { // the same string, written with escapes
			m := cloneMap(valid)
			b, _ := json.Marshal(m)
			esc := strings.Replace(string(b), fmt.Sprintf("%q:%q", name, s), fmt.Sprintf(`%q:"\u%04x%s"`, name, s[0], s[1:]), 1)
			out = append(out, []byte(esc))
		}
		if _, ok := valid[name].(float64); ok { // numbers as the library never sees them written
			for _, lit := range []string{"1.0", "1e0", "-0", "0.5e1", "1e400", "-1e400", "9007199254740993", "1E2", "2"} {
				m := cloneMap(valid)
				m[name] = json.RawMessage(lit)
				b, _ := json.Marshal(m)
				out = append(out, b)
			}
		}
		if sub, ok := valid[name].(map[string]any); ok {
			for _, mb := range mutations(sub) {
				out = append(out, []byte(strings.Replace(string(raw), string(jsonOf(sub)), string(mb), 1)))
			}
		}
		if arr, ok := valid[name].([]any); ok && len(arr) > 0 {
			if sub, ok := arr[0].(map[string]any); ok {
				for _, mb := range mutations(sub) {
					out = append(out, []byte(strings.Replace(string(raw), string(jsonOf(sub)), string(mb), 1)))
				}
			}
		}
	}
	return out
}

func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// sortedKeys lists the (type, version) pairs v has a schema for, in order.
func sortedKeys(v *Validator) []specKey {
	keys := make([]specKey, 0, len(v.data))
	for k := range v.data {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	return keys
}

// TestFastCheckAgreesWithSchema holds the fast data check to the schema
// library: on valid data of every event type and on hundreds of near
// misses each, the fast check never accepts what the library rejects, and
// it accepts the valid data itself (so the fast path is the one taken).
func TestFastCheckAgreesWithSchema(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	keys := sortedKeys(v)
	checked, fastValid, seeded := 0, 0, 0
	for _, k := range keys {
		sch, fast := v.data[k], v.fast[k]
		valid, _ := exampleOf(sch, 1).(map[string]any)
		e := Envelope{Type: k.typ, SchemaVersion: k.version, Data: jsonOf(valid)}
		if schemaCheck(sch, e) != nil {
			t.Logf("%s v%d: no valid example generated; mutating anyway", k.typ, k.version)
		} else {
			seeded++
			if !fast.valid(e.Data) {
				t.Errorf("%s v%d: the fast check does not accept valid data %s", k.typ, k.version, e.Data)
			}
		}
		for _, data := range mutations(valid) {
			e.Data = data
			libOK := schemaCheck(sch, e) == nil
			fastOK := fast.valid(data)
			if fastOK && !libOK {
				t.Errorf("%s v%d: the fast check accepts what the schema rejects: %s", k.typ, k.version, data)
			}
			if fastOK != libOK && libOK {
				// More careful than the library: allowed, the library decides.
				t.Logf("%s v%d: fast check unsure of valid %s", k.typ, k.version, data)
			}
			checked++
			if fastOK {
				fastValid++
			}
		}
	}
	if seeded < len(keys)*3/4 {
		t.Errorf("valid examples for only %d of %d schemas: the test proves little", seeded, len(keys))
	}
	t.Logf("%d schemas (%d with a valid example), %d data checked, %d accepted by the fast check", len(keys), seeded, checked, fastValid)
}

// FuzzFastCheck: on any data, for any event type, the fast check never
// accepts what the schema library rejects.
func FuzzFastCheck(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	keys := sortedKeys(v)
	for i, k := range keys {
		valid, _ := exampleOf(v.data[k], i).(map[string]any)
		f.Add(uint8(i), jsonOf(valid))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		k := keys[int(which)%len(keys)]
		if v.fast[k].valid(data) {
			if err := schemaCheck(v.data[k], Envelope{Type: k.typ, SchemaVersion: k.version, Data: data}); err != nil {
				t.Fatalf("%s v%d: the fast check accepts what the schema rejects (%v): %s", k.typ, k.version, err, data)
			}
		}
	})
}

// TestByteClassMatchesRegexp holds the table form of every identifier
// pattern the schemas use to the regular expression itself.
func TestByteClassMatchesRegexp(t *testing.T) {
	patterns := []string{"^[A-Za-z0-9_-]{1,128}$", "^[a-z][a-z0-9_]{0,31}$", "^[0-9a-f]{64}$", "^[a-z0-9_]{0,31}$"}
	inputs := []string{"", "a", "A", "_", "-", "a-b_C9", "\u00e9", "a\n", "a b", "a.b", strings.Repeat("a", 128),
		strings.Repeat("a", 129), strings.Repeat("f", 64), strings.Repeat("0", 63), "x\x00", "[", "]", "^", "$", "`", "{", "/", "@", ":"}
	for c := 0; c < 256; c++ {
		inputs = append(inputs, string([]byte{byte(c)}), "a"+string([]byte{byte(c)}))
	}
	tables := 0
	for _, p := range patterns {
		table, lo, hi := byteClass(p)
		if table == nil {
			continue
		}
		tables++
		n := &fastCheck{kind: kindString, minLen: -1, maxLen: -1, pattern: regexp.MustCompile(p), class: table, classMin: lo, classMax: hi}
		for _, in := range inputs {
			if got, want := n.checkString([]byte(in)), regexp.MustCompile(p).MatchString(in); got != want {
				t.Errorf("%s on %q: table %v, regexp %v", p, in, got, want)
			}
		}
	}
	if tables != 2 {
		t.Errorf("%d of the patterns became tables, want 2 (the ranged ones)", tables)
	}
}
