package events

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// envelopeStrings are values for the envelope's string fields: plain ones,
// ones encoding/json escapes, non-ASCII and invalid UTF-8, and lengths at
// the envelope schema's bounds.
var envelopeStrings = []string{
	"", "a", "cmem/gateway", "admin", "José", "日本", "a<b", "a&b", "x>y", `q"uote`, `back\slash`,
	"tab\there", "line\u2028sep", "bad\xffutf8", "\x7f", strings.Repeat("i", 128), strings.Repeat("i", 129),
	strings.Repeat("s", 256), strings.Repeat("s", 257), strings.Repeat("é", 64), strings.Repeat("é", 65),
	strings.Repeat("p", 512), strings.Repeat("p", 513),
}

// randomEnvelope is mostly a valid envelope of key k around data, with
// each field replaced now and then by one of envelopeStrings or an odd
// time, so that both paths see near misses of every rule.
func randomEnvelope(r *rand.Rand, k specKey, data []byte) Envelope {
	pick := func(good string) string {
		if r.IntN(4) == 0 {
			return envelopeStrings[r.IntN(len(envelopeStrings))]
		}
		return good
	}
	e := Envelope{
		SpecVersion: pick(SpecVersion), ID: pick("0196f0a0-1111-7222-8333-444455556666"), Source: pick("cmem/gateway"),
		Type: k.typ, SchemaVersion: k.version, Subject: pick("grants/user-agent/alice/planner"),
		Time:            time.Date(2026, 11, 25, 2, 30, 0, r.IntN(1e9), time.UTC),
		DataContentType: pick("application/json"), DataSchema: pick(""), Actor: pick("admin"),
		CorrelationID: pick(""), CausationID: pick(""), Data: data,
	}
	switch r.IntN(12) {
	case 0:
		e.Type = pick("cmem.nope.never")
	case 1:
		e.SchemaVersion = r.IntN(3)
	case 2:
		e.Time = time.Time{}
	case 3:
		e.Time = e.Time.In(time.FixedZone("x", 3600))
	case 4:
		e.Time = time.Date(10000+r.IntN(2), 1, 1, 0, 0, 0, 0, time.UTC)
	case 5:
		e.Time = time.Date(r.IntN(2), 1, 1, 0, 0, 0, 0, time.UTC)
	case 6:
		e.Data = append([]byte(" \n"), append(bytes.ReplaceAll(data, []byte(","), []byte(" , ")), '\t')...)
	case 7:
		e.Data = []byte(`{"x":"<&>"}`)
	case 8:
		e.Data = nil
	case 9:
		e.Data = []byte(`[1,2]`)
	case 10:
		e.Data = data[:len(data)/2]
	}
	return e
}

// TestMarshalKnownMatchesChecked holds Marshal's fast path to the checked
// one on every event type: whenever the fast path answers, the checked
// path returns the same bytes and accepts them. It also makes sure the
// fast path answers for the common case (plain ids, UTC time, data the
// fast schema check is sure of), or the optimisation would silently be
// gone.
func TestMarshalKnownMatchesChecked(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(28, 1))
	var total, known, validTotal, validKnown int
	for _, k := range sortedKeys(v) {
		for variant := range 4 {
			data := jsonOf(exampleOf(v.data[k], variant))
			plain := Envelope{SpecVersion: SpecVersion, ID: "0196f0a0-1111-7222-8333-444455556666", Source: "cmem/gateway",
				Type: k.typ, SchemaVersion: k.version, Subject: "s/" + k.typ, Time: time.Now().UTC(),
				DataContentType: "application/json", Actor: "admin", CorrelationID: "c", Data: data}
			if _, err := v.marshalChecked(plain); err == nil && v.fast[k].valid(data) {
				if _, ok := v.marshalKnown(plain); !ok {
					t.Errorf("%s v%d: the fast path declined a plain valid envelope", k.typ, k.version)
				}
			}
			for range 60 {
				e := randomEnvelope(r, k, data)
				want, wantErr := v.marshalChecked(e)
				got, ok := v.marshalKnown(e)
				total++
				if wantErr == nil {
					validTotal++
				}
				if !ok {
					continue
				}
				known++
				if wantErr != nil {
					t.Fatalf("%s v%d: the fast path accepts what the checked path refuses (%v): %s", k.typ, k.version, wantErr, got)
				}
				validKnown++
				if !bytes.Equal(got, want) {
					t.Fatalf("%s v%d: bytes differ\nfast:    %s\nchecked: %s", k.typ, k.version, got, want)
				}
			}
		}
	}
	t.Logf("%d envelopes, %d valid, %d taken by the fast path", total, validTotal, known)
	if validKnown == 0 {
		t.Error("the fast path took none of the valid envelopes")
	}
}

// TestMarshalKnownTakesNew: an event built by New from a typed payload,
// with the ids cmem uses, goes the fast path, with the checked path's
// bytes.
func TestMarshalKnownTakesNew(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Payload{
		&UserAgentGranted{User: "alice", Agent: "planner"},
		&UserAgentRevoked{User: "alice", Agent: "planner"},
	} {
		e, err := New(Meta{Source: "cmem/gateway", Actor: "admin", CausationID: StepID("x")}, p)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.marshalKnown(e)
		if !ok {
			t.Fatalf("%T: the fast path declined an event New built", p)
		}
		want, err := v.marshalChecked(e)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%T: fast %s, checked %s (%v)", p, got, want, err)
		}
	}
}

// FuzzMarshalKnown: for any field values and data, the fast path never
// accepts what the checked path refuses, and writes its bytes.
func FuzzMarshalKnown(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	keys := sortedKeys(v)
	f.Add(uint(0), "e1", "admin", "grants/user-agent/a/b", int64(0), []byte(`{"user":"a","agent":"b"}`))
	f.Fuzz(func(t *testing.T, key uint, id, actor, subject string, nanos int64, data []byte) {
		k := keys[key%uint(len(keys))]
		e := Envelope{SpecVersion: SpecVersion, ID: id, Source: "fuzz", Type: k.typ, SchemaVersion: k.version,
			Subject: subject, Time: time.Unix(0, nanos).UTC(), DataContentType: "application/json", Actor: actor, Data: data}
		got, ok := v.marshalKnown(e)
		if !ok {
			return
		}
		want, err := v.marshalChecked(e)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("fast %s, checked %s (%v)", got, want, err)
		}
	})
}

// BenchmarkMarshal compares Marshal's two paths on a grant event, the
// commands benchmark's event.
func BenchmarkMarshal(b *testing.B) {
	v, err := DefaultValidator()
	if err != nil {
		b.Fatal(err)
	}
	e, err := New(Meta{Source: "cmem/gateway", Actor: "admin"}, &UserAgentGranted{User: "alice", Agent: "planner"})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("known", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := v.marshalKnown(e); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("checked", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.marshalChecked(e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
