package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// builtPayload makes a payload of kind k (0..5, one per self-checking
// type) from the given fields.
func builtPayload(k uint8, from, to string, rev uint64, expires *time.Time) Payload {
	at := time.Time{}
	if expires != nil {
		at = *expires
	}
	switch k % 6 {
	case 0:
		return &UserAgentGranted{User: from, Agent: to, ExpiresAt: expires}
	case 1:
		return &UserAgentRevoked{User: from, Agent: to}
	case 2:
		return &AgentResourceGranted{Agent: from, Resource: to, ExpiresAt: expires}
	case 3:
		return &AgentResourceRevoked{Agent: from, Resource: to}
	case 4:
		return &UserAgentExpired{User: from, Agent: to, GrantRevision: rev, ExpiresAt: at}
	default:
		return &AgentResourceExpired{Agent: from, Resource: to, GrantRevision: rev, ExpiresAt: at}
	}
}

// checkBuilt builds p through New and, when New vouched for its data,
// fails unless the data is what encoding/json writes for p, the schema
// library itself (not the fast check) accepts it, and Marshal writes the
// same bytes as the unvouched path. It reports whether New vouched.
func checkBuilt(t *testing.T, v *Validator, p Payload) bool {
	t.Helper()
	m := Meta{Source: "cmem/gateway", Actor: "admin", ID: "0193a1b2-0000-7000-8000-000000000001", Time: time.Date(2026, 11, 29, 13, 0, 0, 123, time.UTC)}
	e, err := New(m, p)
	if err != nil {
		t.Fatalf("New(%#v): %v", p, err)
	}
	if !e.vouchedData() {
		return false
	}
	want, err := json.Marshal(p)
	if err != nil || !bytes.Equal(e.Data, want) {
		t.Fatalf("%s: vouched data %s, encoding/json writes %s (%v)", e.Type, e.Data, want, err)
	}
	if err := schemaCheck(v.data[specKey{e.Type, e.SchemaVersion}], e); err != nil {
		t.Fatalf("%s: New vouched for data its schema rejects: %s: %v", e.Type, e.Data, err)
	}
	got, err := v.Marshal(e)
	plain := e
	plain.vouched = vouch{}
	byBook, err2 := v.marshalChecked(plain)
	if err != nil || err2 != nil || !bytes.Equal(got, byBook) {
		t.Fatalf("%s: Marshal wrote %s (%v), the checked path %s (%v)", e.Type, got, err, byBook, err2)
	}
	return true
}

// TestBuiltEventsMatchTheirSchemas builds every event type that has its
// own checked writer through New, at the edges of what its schema
// allows, and holds each to its schema file and to encoding/json's bytes
// (so the log is byte-identical to what it was before the writers).
func TestBuiltEventsMatchTheirSchemas(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	// Every type with a writer is one of the six below.
	writers := map[string]bool{}
	for typ, s := range current {
		if _, ok := s.new().(selfChecking); ok {
			writers[typ] = true
		}
	}
	covered := map[string]bool{}
	for k := range uint8(6) {
		covered[builtPayload(k, "a", "b", 1, nil).EventType()] = true
	}
	for typ := range writers {
		if !covered[typ] {
			t.Fatalf("%s has a checked writer this test does not build", typ)
		}
	}
	ids := []string{"a", "Z", "0", "_", "-", "alice", "c63", "A-z_0-9", strings.Repeat("x", MaxIDLen)}
	times := []time.Time{
		time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC),
		time.Date(2026, 2, 28, 23, 59, 59, 999999999, time.UTC),
		time.Date(2028, 2, 29, 0, 0, 0, 120000000, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1, time.UTC),
	}
	for k := range uint8(6) {
		for i, from := range ids {
			to := ids[(i+3)%len(ids)]
			for j, at := range times {
				rev := []uint64{1, 2, 77, 1 << 53, 4096}[j]
				if !checkBuilt(t, v, builtPayload(k, from, to, rev, &at)) {
					t.Fatalf("New did not vouch for a valid %T (%q, %q, %d, %v)", builtPayload(k, from, to, rev, &at), from, to, rev, at)
				}
			}
			if k < 4 && !checkBuilt(t, v, builtPayload(k, from, to, 1, nil)) {
				t.Fatalf("New did not vouch for a valid %T without expiry", builtPayload(k, from, to, 1, nil))
			}
		}
	}
}

// TestBuiltEventsVouchOnlyForValid gives the writers what their schemas
// reject, and what Go writes in a form the writers leave to the full
// check: New must not vouch for any of it, and Marshal must refuse what
// the schema refuses. It fails when a writer's id, revision or time check
// is removed.
func TestBuiltEventsVouchOnlyForValid(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	ok := time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)
	paris := ok.In(time.FixedZone("CET", 3600))
	invalid := []struct {
		from, to string
		rev      uint64
	}{
		{"", "b", 1}, {"a", "", 1}, {strings.Repeat("x", MaxIDLen+1), "b", 1}, {"a.b", "c", 1}, {"a", "b c", 1},
		{"a", "*", 1}, {"a", ">", 1}, {"é", "b", 1}, {"a<b", "c", 1}, {"a\"", "b", 1}, {"a", "b\n", 1}, {"a/b", "c", 1},
	}
	for k := range uint8(6) {
		for _, c := range invalid {
			p := builtPayload(k, c.from, c.to, c.rev, &ok)
			if checkBuilt(t, v, p) {
				t.Fatalf("New vouched for %#v, which its schema rejects", p)
			}
			e, err := New(Meta{Source: "test", Actor: "admin"}, p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := v.Marshal(e); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Marshal(%#v) = %v, want ErrInvalid", p, err)
			}
		}
		// Valid, but not in the form the writers vouch for: full check.
		if checkBuilt(t, v, builtPayload(k, "a", "b", 1, &paris)) && k != 1 && k != 3 {
			t.Fatalf("New vouched for a time with a zone (%T)", builtPayload(k, "a", "b", 1, &paris))
		}
	}
	for _, rev := range []uint64{0, 1<<53 + 1} {
		for k := uint8(4); k < 6; k++ {
			if p := builtPayload(k, "a", "b", rev, &ok); checkBuilt(t, v, p) {
				t.Fatalf("New vouched for grant revision %d (%T)", rev, p)
			}
		}
	}
	if _, err := v.Marshal(mustNew(t, builtPayload(4, "a", "b", 0, &ok))); !errors.Is(err, ErrInvalid) {
		t.Fatalf("an expiry of grant revision 0 marshalled: %v", err)
	}
}

// TestVouchIsNotCarriedOver: the vouch covers the data New wrote, under
// the type it wrote it for, and nothing that reaches cmem another way.
// Each case fails if vouchedData stops comparing that part.
func TestVouchIsNotCarriedOver(t *testing.T) {
	v, err := DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)
	granted := mustNew(t, &UserAgentGranted{User: "u", Agent: "a", ExpiresAt: &at})
	if !granted.vouchedData() {
		t.Fatal("New did not vouch for a plain grant")
	}
	replaced := granted
	replaced.Data = json.RawMessage(`{"user":"u.v","agent":"a"}`)
	retyped := granted // the grant's expiry is no property of a revoke
	retyped.Type = TypeUserAgentRevoked
	// An envelope decoded from the wire, as from an import file or a bus
	// message: whatever it says, it carries no vouch.
	var decoded Envelope
	if err := json.Unmarshal([]byte(`{"specversion":"1.0","id":"x","source":"s","type":"cmem.user_agent.granted","schemaversion":1,"subject":"grants/user-agent/u/a","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"mallory","data":{"user":"u/../v","agent":"a"}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]Envelope{"replaced data": replaced, "retyped": retyped, "decoded": decoded} {
		if e.vouchedData() {
			t.Errorf("%s: still vouched for", name)
		}
		if _, err := v.Marshal(e); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Marshal = %v, want ErrInvalid", name, err)
		}
	}
}

func mustNew(t *testing.T, p Payload) Envelope {
	t.Helper()
	e, err := New(Meta{Source: "test", Actor: "admin"}, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// FuzzBuiltEvents: whatever the fields, data New vouches for is what
// encoding/json writes and what the schema library accepts.
func FuzzBuiltEvents(f *testing.F) {
	v, err := DefaultValidator()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), "alice", "planner", uint64(1), int64(0), int32(0), true)
	f.Add(uint8(4), "a", "b", uint64(7), int64(1e18), int32(3600), true)
	f.Add(uint8(2), "a-b_C9", strings.Repeat("z", 128), uint64(0), int64(-1), int32(0), false)
	f.Add(uint8(5), "x.y", "b", uint64(1), int64(253402300799999999), int32(0), true)
	f.Fuzz(func(t *testing.T, k uint8, from, to string, rev uint64, nanos int64, offset int32, hasExpiry bool) {
		at := time.Unix(0, nanos).UTC()
		if offset != 0 {
			at = at.In(time.FixedZone("z", int(offset%(26*3600))))
		}
		var expires *time.Time
		if hasExpiry {
			expires = &at
		}
		checkBuilt(t, v, builtPayload(k, from, to, rev, expires))
	})
}

// BenchmarkBuildMessage is what a grant command spends building its
// message: New, then Marshal (vouched data is not scanned again).
func BenchmarkBuildMessage(b *testing.B) {
	v, err := DefaultValidator()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e, err := New(Meta{Source: "cmem/gateway", Actor: "admin"}, &UserAgentGranted{User: "c63", Agent: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Marshal(e); err != nil {
			b.Fatal(err)
		}
	}
}
