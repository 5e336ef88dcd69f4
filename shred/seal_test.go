package shred_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/shred"
)

// memKeys is an in-memory key store: a hand-written fake for the logic of
// sealing; the real store is tested in keyring_test.go.
type memKeys struct {
	keys map[string][]byte
	fail error
}

func (m *memKeys) DataKey(_ context.Context, s events.DataSubject) (string, []byte, error) {
	id := shred.KeyID(s)
	if m.keys[id] == nil {
		m.keys[id] = []byte(strings.Repeat(id[:1], 32))
	}
	return id, m.keys[id], nil
}

func (m *memKeys) Key(_ context.Context, id string) ([]byte, error) {
	if m.fail != nil {
		return nil, m.fail
	}
	k, ok := m.keys[id]
	if !ok {
		return nil, shred.ErrNoKey
	}
	return k, nil
}

func envelope(t *testing.T, p events.Payload) events.Envelope {
	t.Helper()
	e, err := events.New(events.Meta{Source: "t", Actor: "alice"}, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const secret = "the-secret-marker"

func TestSealHidesEveryContentFieldAndOpenRestoresIt(t *testing.T) {
	ctx := t.Context()
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	payloads := []events.Payload{
		&events.FragmentWritten{ID: "f1", User: "alice", Key: "k " + secret, Value: "v " + secret, Tier: "shared",
			Agents: []string{"a"}, Embedding: &events.Embedding{Model: "m", Dims: 1, Vector: "AACAPw=="},
			TimeRefs: []events.TimeRef{{Text: secret, Start: secret + "s", End: secret + "e", Grain: secret + "g"}}},
		&events.QuerySubmitted{ID: "q1", User: "alice", Text: secret, Channel: "http"},
		&events.AgentSelected{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Subquery: secret},
		&events.ResourceCalled{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Resource: "r",
			Arguments: map[string]any{"q": secret}, Error: secret},
		&events.AgentResponded{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Subquery: secret, Response: secret},
		&events.QueryAnswered{QueryID: "q1", User: "alice", Answer: secret},
		&events.MemoryRead{User: "alice", Agent: "a", Query: secret},
	}
	for _, p := range payloads {
		e := envelope(t, p)
		sealed, err := s.Seal(ctx, e)
		if err != nil {
			t.Fatalf("%s: seal: %v", e.Type, err)
		}
		if strings.Contains(string(sealed.Data), secret) || strings.Contains(string(sealed.Data), "AACAPw==") {
			t.Errorf("%s: sealed data still holds content: %s", e.Type, sealed.Data)
		}
		if !strings.Contains(string(sealed.Data), `"alice"`) {
			t.Errorf("%s: metadata must stay in clear: %s", e.Type, sealed.Data)
		}
		opened, err := s.Open(ctx, sealed)
		if err != nil {
			t.Fatalf("%s: open: %v", e.Type, err)
		}
		if !jsonEqual(t, opened.Data, e.Data) {
			t.Errorf("%s: opened %s, want %s", e.Type, opened.Data, e.Data)
		}
	}
	if _, ok := keys.keys["f.alice.f1"]; !ok {
		t.Errorf("a fragment is sealed under its own key; keys made: %v", keys.keys)
	}
	if _, ok := keys.keys["q.alice.q1"]; !ok {
		t.Errorf("a query's events are sealed under the query's key; keys made: %v", keys.keys)
	}
}

func TestOpenWithoutTheKeyYieldsErased(t *testing.T) {
	ctx := t.Context()
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	e := envelope(t, &events.FragmentWritten{ID: "f1", User: "alice", Key: secret, Value: secret, Tier: "shared",
		Agents: []string{"a"}, Embedding: &events.Embedding{Model: "m", Dims: 1, Vector: "AACAPw=="},
		TimeRefs: []events.TimeRef{{Text: "last week", Start: "2023-05-29", End: "2023-06-05", Grain: "week"}}})
	sealed, err := s.Seal(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	delete(keys.keys, "f.alice.f1")
	opened, err := s.Open(ctx, sealed)
	if err != nil {
		t.Fatal(err)
	}
	p, err := opened.Decode()
	if err != nil {
		t.Fatal(err)
	}
	f := p.(*events.FragmentWritten)
	if f.Key != events.Erased || f.Value != events.Erased || f.Embedding != nil || f.TimeRefs != nil || f.ID != "f1" || f.User != "alice" {
		t.Errorf("erased fragment opened as %+v", f)
	}
}

func TestOpenFailsLoudlyWhenTheKeyStoreFails(t *testing.T) {
	ctx := t.Context()
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	sealed, err := s.Seal(ctx, envelope(t, &events.QueryAnswered{QueryID: "q1", User: "alice", Answer: secret}))
	if err != nil {
		t.Fatal(err)
	}
	keys.fail = errors.New("store down")
	if _, err := s.Open(ctx, sealed); err == nil || errors.Is(err, events.ErrInvalid) {
		t.Fatalf("an unreachable key store must be an error to retry (not ErrInvalid), never taken for an erasure: %v", err)
	}
	keys.fail = nil
	// Tampering is detected: another key id in the sealed field.
	tampered := sealed
	tampered.Data = []byte(strings.Replace(string(sealed.Data), "q.alice.q1", "q.alice.q2", 1))
	keys.keys["q.alice.q2"] = keys.keys["q.alice.q1"]
	if _, err := s.Open(ctx, tampered); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("a sealed field moved under another key id must not open, and never will (ErrInvalid): %v", err)
	}
	// A sealed field that is not even well formed never opens either.
	i := strings.Index(string(sealed.Data), "q.alice.q1:")
	broken := sealed
	broken.Data = []byte(string(sealed.Data[:i]) + "q.alice.q1:!!!" + string(sealed.Data[i+len("q.alice.q1:"):]))
	if _, err := s.Open(ctx, broken); !errors.Is(err, events.ErrInvalid) {
		t.Fatalf("a malformed sealed field: %v, want ErrInvalid", err)
	}
}

func TestEventsWithoutContentPassUnchanged(t *testing.T) {
	s := shred.NewSealer(&memKeys{keys: map[string][]byte{}})
	e := envelope(t, &events.UserAgentGranted{User: "alice", Agent: "a"})
	got, err := s.Seal(t.Context(), e)
	if err != nil || string(got.Data) != string(e.Data) {
		t.Fatalf("seal changed an event without content: %s, %v", got.Data, err)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
