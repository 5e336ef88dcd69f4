package events_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
)

func mustValidator(t *testing.T) *events.Validator {
	t.Helper()
	v, err := events.DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// roundTrip puts e through the validator's encoding and back, as a write
// to the log and a read from it do.
func roundTrip(t *testing.T, v *events.Validator, e events.Envelope) events.Envelope {
	t.Helper()
	raw, err := v.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := v.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestEveryRegisteredTypeHasASchema(t *testing.T) {
	v := mustValidator(t)
	for _, typ := range events.Types() {
		raw := []byte(`{"specversion":"1.0","id":"x","source":"t","type":"` + typ + `","schemaversion":1,"subject":"s","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"a","data":{}}`)
		_, err := v.Parse(raw)
		if !errors.Is(err, events.ErrInvalid) {
			t.Errorf("%s with empty data: got %v, want ErrInvalid (the schema must require fields)", typ, err)
		}
	}
}

func TestNewRoundTrips(t *testing.T) {
	v := mustValidator(t)
	e, err := events.New(events.Meta{Source: "test", Actor: "admin"}, &events.UserAgentGranted{User: "alice", Agent: "planner"})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, v, e)
	if back.ID != e.ID || back.Type != events.TypeUserAgentGranted || back.Subject != "grants/user-agent/alice/planner" || back.CorrelationID != e.ID {
		t.Fatalf("round trip changed the envelope: %+v", back)
	}
	p, err := back.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if g := p.(*events.UserAgentGranted); g.User != "alice" || g.Agent != "planner" {
		t.Fatalf("decoded %+v", g)
	}
}

func TestParseRejects(t *testing.T) {
	v := mustValidator(t)
	good := map[string]any{
		"specversion": "1.0", "id": "e1", "source": "t", "type": events.TypeUserRegistered, "schemaversion": 1,
		"subject": "users/u", "time": "2026-01-01T00:00:00Z", "datacontenttype": "application/json", "actor": "admin",
		"data": map[string]any{"id": "u", "role": "user", "token_sha256": strings.Repeat("a", 64)},
	}
	if _, err := v.Parse(mustJSON(t, good)); err != nil {
		t.Fatalf("baseline event rejected: %v", err)
	}
	cases := []struct {
		name   string
		mutate func(m map[string]any)
		want   error
		reason string
	}{
		{"unknown type", func(m map[string]any) { m["type"] = "cmem.thing.happened" }, events.ErrUnknownType, "cmem.thing.happened"},
		{"future version", func(m map[string]any) { m["schemaversion"] = 99 }, events.ErrUnknownType, "v99"},
		{"missing actor", func(m map[string]any) { delete(m, "actor") }, events.ErrInvalid, "actor"},
		{"bad time", func(m map[string]any) { m["time"] = "yesterday" }, events.ErrInvalid, "/time"},
		{"extra envelope field", func(m map[string]any) { m["revision"] = 3 }, events.ErrInvalid, "revision"},
		{"bad role", func(m map[string]any) { m["data"].(map[string]any)["role"] = "root" }, events.ErrInvalid, "/role"},
		{"id with dot", func(m map[string]any) { m["data"].(map[string]any)["id"] = "a.b" }, events.ErrInvalid, "/id"},
		{"short token hash", func(m map[string]any) { m["data"].(map[string]any)["token_sha256"] = "abc" }, events.ErrInvalid, "token_sha256"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := clone(t, good)
			c.mutate(m)
			_, err := v.Parse(mustJSON(t, m))
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("reason %q does not name %q", err, c.reason)
			}
		})
	}
	if _, err := v.Parse([]byte("{not json")); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("garbage: got %v", err)
	}
}

func TestCheckID(t *testing.T) {
	for _, ok := range []string{"a", "alice-1", "A_B", strings.Repeat("x", 128)} {
		if err := events.CheckID(ok); err != nil {
			t.Errorf("%q rejected: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a.b", "a b", "*", ">", "é", strings.Repeat("x", 129)} {
		if err := events.CheckID(bad); !errors.Is(err, events.ErrInvalidID) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func clone(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(mustJSON(t, m), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestResourceConfigSurvivesTheRoundTrip(t *testing.T) {
	v := mustValidator(t)
	e, err := events.New(events.Meta{Source: "s", Actor: "a"}, &events.ResourceRegistered{
		ID: "kb", Kind: "knowledge_base", Description: "d", Config: json.RawMessage(`{"documents":[{"id":"d1","text":"x"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, v, e)
	p, err := back.Decode()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.(*events.ResourceRegistered).Config); got != `{"documents":[{"id":"d1","text":"x"}]}` {
		t.Fatalf("config %s", got)
	}
}

func TestVectorRoundTrip(t *testing.T) {
	v := []float32{0, 1.5, -2.25, 3e-8}
	e := events.Embedding{Model: "m", Dims: len(v), Vector: events.EncodeVector(v)}
	back, err := e.DecodeVector()
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if back[i] != v[i] {
			t.Fatalf("component %d: %v != %v", i, back[i], v[i])
		}
	}
	e.Dims = 5
	if _, err := e.DecodeVector(); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("wrong dims: %v", err)
	}
}
