package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// envelopeCorpus is the reference corpus of the fast envelope decoder:
// what cmem writes, and the variations of it the scanner must refuse or
// decode exactly as the generic decoder does.
func envelopeCorpus(t testing.TB) [][]byte {
	e, err := New(Meta{Source: "s", Actor: "admin", CausationID: "k", Time: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)},
		&FragmentWritten{ID: "f1", User: "u", Key: "k", Value: "v", Tier: "shared", Agents: []string{"a"}, Resources: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	good, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	sv := fmt.Sprintf(`"schemaversion":%d`, e.SchemaVersion) // 16 bytes before the number
	swap := func(old, new string) []byte {
		if !bytes.Contains(good, []byte(old)) {
			t.Fatalf("corpus: %s not in %s", old, good)
		}
		return bytes.Replace(good, []byte(old), []byte(new), 1)
	}
	out := [][]byte{good, seedEnvelope(TypeUserAgentGranted, []byte(`{"user":"u","agent":"a"}`)),
		append([]byte(" \n\t"), append(bytes.Clone(good), "\r\n "...)...),
		swap(`"id":`, ` "id" : `), swap(`"actor":"admin"`, `"actor":"ad\u00e9min"`),
		swap(`"actor":"admin"`, `"actor":"ad\\u0041min"`), swap(`"actor":"admin"`, `"actor":"a\"b"`),
		swap(`"actor":"admin"`, "\"actor\":\"a\xffb\""), swap(`"actor":"admin"`, "\"actor\":\"a\x01b\""),
		swap(`"actor":"admin"`, `"actor":"admin","actor":"admin"`), swap(`"actor":"admin"`, `"Actor":"admin"`),
		swap(`"actor":"admin"`, `"actor":null`), swap(`"actor":"admin"`, `"act\u006fr":"admin"`),
		swap(`"actor":"admin"`, `"actor":"admin","extra":1`), swap(`"actor":"admin",`, ``),
		swap(sv, sv[:16]+"0"+sv[16:]), swap(sv, sv+".0"), swap(sv, sv+"e0"), swap(sv, sv[:16]+"-"+sv[16:]),
		swap(sv, sv[:16]+`"`+sv[16:]+`"`), swap(sv, sv+"2345678901"), swap(sv, sv[:16]+" "+sv[16:]+" "),
		swap(`.0000006Z`, `Z`), swap(`.0000006Z`, `+00:00`), swap(`.0000006Z`, `,5Z`), swap(`T03`, `T3`),
		swap(`2026-01-02`, `2026-13-02`), swap(`.0000006Z`, `.Z`), swap(`"time":"`, `"time":" `),
		swap(`"causationid":"k"`, `"causationid":null`), swap(`"causationid":"k"`, `"causationid":""`),
		swap(`"data":{`, `"data":[`), swap(`"data":{`, `"data":{"x":[1,-0.5e+3,true,false,null,{"y":"\n\u00e9"}],`),
		swap(`"data":{`, `"data":{"id":"dup",`), swap(`"data":{`, `"data":{"a":{"b":1,"b":2},`),
		swap(`"data":{`, `"data":{"a":01,`), swap(`"data":{`, `"data":{"a":1.,`), swap(`"data":{`, `"data":{"a":tru,`),
		swap(`"data":{`, `"data":{"a":"\ud800",`), swap(`"data":{`, `"data":{"a":[1,],`), swap(`"data":{`, `"data":{ "a" : [ 1 , 2 ] ,`),
		append(bytes.Clone(good), '}'), good[:len(good)-1], []byte(`{}`), []byte(`[]`), []byte(``),
	}
	return out
}

// checkFastEnvelope fails when the fast decoder answers where the generic
// one fails, or answers differently.
func checkFastEnvelope(t *testing.T, raw []byte) bool {
	fast, ok := fastEnvelope(raw)
	want, err := genericEnvelope(raw)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast decoder accepts what the generic one refuses (%v): %q", err, raw)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("fast decoder differs on %q:\n fast %#v\n want %#v", raw, fast, want)
	}
	return true
}

func TestFastEnvelopeAgreesWithDecoder(t *testing.T) {
	fast := 0
	for _, raw := range envelopeCorpus(t) {
		if checkFastEnvelope(t, raw) {
			fast++
		}
	}
	// What cmem writes takes the fast path, or there is no point to it.
	good := envelopeCorpus(t)[0]
	if _, ok := fastEnvelope(good); !ok {
		t.Fatalf("the fast decoder refuses an event cmem wrote: %s", good)
	}
	if fast < 8 {
		t.Fatalf("only %d corpus entries took the fast path", fast)
	}
}

func FuzzFastEnvelope(f *testing.F) {
	for _, raw := range envelopeCorpus(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkFastEnvelope(t, raw) })
}
