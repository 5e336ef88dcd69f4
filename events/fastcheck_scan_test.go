package events

import (
	"strings"
	"testing"
)

// syntaxMutations are valid data bent at the level of JSON syntax, where
// the scanner and jsontext could part: duplicate and escaped names,
// invalid UTF-8, bad escapes, broken literals and numbers, trailing bytes,
// deep nesting.
func syntaxMutations(raw []byte) [][]byte {
	s := string(raw)
	body := s[1 : len(s)-1]
	deep := strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40)
	out := [][]byte{
		[]byte(s + "x"), []byte(s + " "), []byte(" " + s), []byte(s[:len(s)-1]), []byte("{" + body + ",}"),
		[]byte("{," + body + "}"), []byte("{" + body + "," + body + "}"), []byte(`{"zz":` + deep + `,` + body + `}`),
		[]byte(`{"a":tru,` + body + `}`), []byte(`{"a":truex,` + body + `}`), []byte(`{"a":01,` + body + `}`),
		[]byte(`{"a":-,` + body + `}`), []byte(`{"a":1.,` + body + `}`), []byte(`{"a":"\x",` + body + `}`),
		[]byte(`{"a":"\ud800",` + body + `}`), []byte("{\"a\":\"\xff\"," + body + "}"), []byte("{\"a\":\"\x01\"," + body + "}"),
		[]byte(`{"a":{"b":1,"b":2},` + body + `}`), []byte(`{"\u0061":1,"a":2,` + body + `}`), []byte(`{"a":[1,,2],` + body + `}`),
	}
	// Each string value of the data with an escape, an invalid byte, a
	// raw control character, or cut short.
	for i := 0; i < len(s); i++ {
		if s[i] != ':' || i+1 >= len(s) || s[i+1] != '"' {
			continue
		}
		for _, ins := range []string{`\"`, `\u003c`, `\/`, "\xc3", "\x1f", `\`, `\ud83d\ude00`, `"`} {
			out = append(out, []byte(s[:i+2]+ins+s[i+2:]))
		}
	}
	return out
}

// TestScanCheckAgreesWithDecoderCheck holds the scanner's walk to the
// jsontext walk it replaced, on the near misses of every schema and on
// syntax-level ones: it accepts nothing the old walk rejects unless the
// library accepts it too, and it accepts every valid example the old walk
// did (so the fast path is still the one taken).
func TestScanCheckAgreesWithDecoderCheck(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	both, onlyOld := 0, 0
	for _, k := range sortedKeys(v) {
		sch, fast := v.data[k], v.fast[k]
		valid, _ := exampleOf(sch, 1).(map[string]any)
		raw := jsonOf(valid)
		corpus := append(mutations(valid), syntaxMutations(raw)...)
		for _, data := range corpus {
			scanOK, oldOK := fast.valid(data), fast.decoderValid(data)
			libOK := schemaCheck(sch, Envelope{Type: k.typ, SchemaVersion: k.version, Data: data}) == nil
			switch {
			case scanOK && !libOK:
				t.Errorf("%s v%d: the scan accepts what the schema rejects: %q", k.typ, k.version, data)
			case scanOK && oldOK:
				both++
			case oldOK:
				onlyOld++
				if string(data) == string(raw) {
					t.Errorf("%s v%d: the scan is unsure of the valid example the old walk accepted: %s", k.typ, k.version, data)
				}
			}
		}
	}
	t.Logf("accepted by both %d, by the old walk only %d", both, onlyOld)
	if both == 0 {
		t.Error("nothing accepted by both: the test proves nothing")
	}
}

// FuzzScanCheck: on any data, for any event type, the scanner's walk
// accepts nothing the schema library rejects; seeded with every schema's
// valid example and its syntax-level near misses.
func FuzzScanCheck(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	keys := sortedKeys(v)
	for i, k := range keys {
		valid, _ := exampleOf(v.data[k], i).(map[string]any)
		for _, data := range append([][]byte{jsonOf(valid)}, syntaxMutations(jsonOf(valid))...) {
			f.Add(uint8(i), data)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		k := keys[int(which)%len(keys)]
		if v.fast[k].valid(data) {
			if err := schemaCheck(v.data[k], Envelope{Type: k.typ, SchemaVersion: k.version, Data: data}); err != nil {
				t.Fatalf("%s v%d: the scan accepts what the schema rejects (%v): %q", k.typ, k.version, err, data)
			}
		}
	})
}
