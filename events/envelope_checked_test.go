package events

import (
	"fmt"
	"reflect"
	"testing"
)

// checkEnvelopeChecking fails when ParseEnvelopeChecking differs from
// ParseEnvelope in its envelope or its verdict, or says checked where
// CheckData rejects the data.
func checkEnvelopeChecking(t *testing.T, v *Validator, raw []byte) (checked bool) {
	got, checked, err := v.ParseEnvelopeChecking(raw)
	want, wantErr := v.ParseEnvelope(raw)
	if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseEnvelopeChecking differs on %q:\n got %#v, %v\n want %#v, %v", raw, got, err, want, wantErr)
	}
	if checked {
		if err := v.CheckData(want); err != nil {
			t.Fatalf("checked in one pass, but CheckData rejects it (%v): %q", err, raw)
		}
	}
	return checked
}

// checkingCorpus is every schema's valid example and near misses (of the
// data and of its syntax) in an envelope, plus the envelope corpus.
func checkingCorpus(t testing.TB, v *Validator) [][]byte {
	out := envelopeCorpus(t)
	for i, k := range sortedKeys(v) {
		valid, _ := exampleOf(v.data[k], i).(map[string]any)
		for _, data := range append(mutations(valid), syntaxMutations(jsonOf(valid))...) {
			out = append(out, seedEnvelopeVersion(k.typ, k.version, data))
		}
	}
	return out
}

// TestEnvelopeCheckingAgrees holds the one-pass envelope and data check
// to ParseEnvelope then CheckData, and requires that it checks the data
// of most valid events itself (or there is no point to it).
func TestEnvelopeCheckingAgrees(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, raw := range checkingCorpus(t, v) {
		if checkEnvelopeChecking(t, v, raw) {
			checked++
		}
	}
	for i, k := range sortedKeys(v) {
		valid, _ := exampleOf(v.data[k], i).(map[string]any)
		if _, ok, _ := v.ParseEnvelopeChecking(seedEnvelopeVersion(k.typ, k.version, jsonOf(valid))); !ok && schemaCheck(v.data[k], Envelope{Type: k.typ, SchemaVersion: k.version, Data: jsonOf(valid)}) == nil {
			t.Errorf("%s v%d: valid data not checked in one pass", k.typ, k.version)
		}
	}
	t.Logf("checked in one pass: %d", checked)
}

func FuzzEnvelopeChecking(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	for _, raw := range checkingCorpus(f, v) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkEnvelopeChecking(t, v, raw) })
}

// seedEnvelopeVersion wraps data, as it is, in an envelope written in
// cmem's member order (the data last).
func seedEnvelopeVersion(typ string, version int, data []byte) []byte {
	head := fmt.Sprintf(`{"specversion":"1.0","id":"e1","source":"s","type":%q,"schemaversion":%d,"subject":"x/y",`+
		`"time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"admin","data":`, typ, version)
	return append(append([]byte(head), data...), '}')
}
