package shred_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/shred"
)

// TestOpenedDataIsTheReencodedPayload: the data OpenPayload hands back is
// byte for byte encoding/json's encoding of the opened payload, which is
// what it was before the sealed strings were spliced in place, for every
// type with content and for text that encoding/json escapes.
func TestOpenedDataIsTheReencodedPayload(t *testing.T) {
	ctx := t.Context()
	texts := []string{secret, "quote \" back \\ slash", "tab\tline\nbreak\x01", "<html> & \u2028 é 日本", "a <b> & c", "bad \xff byte", ""}
	for _, text := range texts {
		payloads := append(contentPayloads(),
			&events.QuerySubmitted{ID: "q2", User: "alice", Text: text, Channel: "http"},
			&events.FragmentWritten{ID: "f3", User: "alice", Key: text, Value: text + "v", Tier: "private", Agents: []string{},
				Embedding: &events.Embedding{Model: "m", Dims: 1, Vector: "AACAPw=="}})
		for _, p := range payloads {
			s := shred.NewSealer(&memKeys{keys: map[string][]byte{}})
			sealed, err := s.Seal(ctx, envelope(t, p))
			if err != nil {
				t.Fatal(err)
			}
			opened, err := s.Open(ctx, sealed)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := sealed.Decode()
			if err != nil {
				t.Fatal(err)
			}
			want := reencoded(t, s, sealed, pl)
			if !bytes.Equal(opened.Data, want) {
				t.Fatalf("%s, text %q: opened data\n %s\nencoding/json gives\n %s", sealed.Type, text, opened.Data, want)
			}
		}
	}
}

// reencoded is the opened data as encoding/json writes the opened payload:
// the payload decoded from the sealed data, each content field replaced by
// its opened value (read from a plain Open's payload), encoded whole.
func reencoded(t *testing.T, s *shred.Sealer, sealed events.Envelope, pl events.Payload) []byte {
	t.Helper()
	_, opened, err := s.OpenPayload(t.Context(), sealed)
	if err != nil {
		t.Fatal(err)
	}
	if opened == nil { // invalid UTF-8: compare with the payload as decoded
		e, err := s.Open(t.Context(), sealed)
		if err != nil {
			t.Fatal(err)
		}
		if opened, err = e.Decode(); err != nil {
			t.Fatal(err)
		}
	}
	c, oc := pl.(events.Content), opened.(events.Content)
	for i, f := range c.ContentFields() {
		*f = *oc.ContentFields()[i]
	}
	if co, ok := c.(events.ContentObjects); ok {
		for i, o := range co.ContentObjects() {
			*o = *oc.(events.ContentObjects).ContentObjects()[i]
		}
	}
	raw, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestOpenedDataWithSealedLookalikes: a sealed string copied into a
// member that is not content, or into two content fields, or a sealed
// prefix spelled with an escape, still opens to data that decodes to the
// opened payload and passes no sealed string through unopened.
func TestOpenedDataWithSealedLookalikes(t *testing.T) {
	ctx := t.Context()
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	sealed, err := s.Seal(ctx, envelope(t, &events.AgentResponded{QueryID: "q1", User: "alice", Round: 1, Agent: "a",
		Subquery: "sub " + secret, Response: "resp " + secret, Resources: []string{}, FragmentsRead: []string{"f1"}}))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(sealed.Data, &m); err != nil {
		t.Fatal(err)
	}
	sub := m["subquery"].(string)
	edits := map[string]func(map[string]any) []byte{
		"token in another member": func(m map[string]any) []byte { m["agent"] = sub; return marshal(t, m) },
		"one token in two fields": func(m map[string]any) []byte { m["response"] = sub; return marshal(t, m) },
		"escaped prefix": func(m map[string]any) []byte {
			raw := marshal(t, m)
			return bytes.Replace(raw, []byte(`"sealed:`), []byte(`"\u0073ealed:`), 1)
		},
	}
	for name, edit := range edits {
		var c map[string]any
		if err := json.Unmarshal(sealed.Data, &c); err != nil {
			t.Fatal(err)
		}
		e := sealed
		e.Data = edit(c)
		opened, pl, err := s.OpenPayload(ctx, e)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := opened.Decode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if pl != nil && !equalJSON(t, pl, want) {
			t.Fatalf("%s: handed %#v, data decodes to %#v", name, pl, want)
		}
		got := want.(*events.AgentResponded)
		if strings.HasPrefix(got.Subquery, "sealed:") || strings.HasPrefix(got.Response, "sealed:") {
			t.Fatalf("%s: a content field stayed sealed: %s", name, opened.Data)
		}
		if !strings.Contains(got.Subquery, secret) || !strings.Contains(got.Response, secret) {
			t.Fatalf("%s: content not opened: %s", name, opened.Data)
		}
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func equalJSON(t *testing.T, a, b any) bool { return bytes.Equal(marshal(t, a), marshal(t, b)) }
