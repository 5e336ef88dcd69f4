package shred_test

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/shred"
)

// contentPayloads has one payload of every type with content, with empty
// and missing lists and free-form arguments: what a decode could turn
// into something else.
func contentPayloads() []events.Payload {
	return []events.Payload{
		&events.FragmentWritten{ID: "f1", User: "alice", Key: "k " + secret, Value: "v é " + secret, Tier: "shared",
			Agents: []string{"a"}, Resources: []string{}, CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
			Provenance: events.ProvenanceTransitive, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"},
			Embedding: &events.Embedding{Model: "m", Dims: 1, Vector: "AACAPw=="},
			TimeRefs:  []events.TimeRef{{Text: secret, Start: secret + "s", End: secret + "e", Grain: secret + "g"}}},
		&events.FragmentWritten{ID: "f2", User: "alice", Key: "k", Value: "<v & \u2028>", Tier: "private", Agents: []string{}},
		&events.QuerySubmitted{ID: "q1", User: "alice", Text: secret, Channel: "http"},
		&events.AgentSelected{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Subquery: secret, Offered: []string{"a"},
			Label: &events.Label{Agents: []string{"a"}, Resources: []string{}}},
		&events.ResourceCalled{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Resource: "r",
			Arguments: map[string]any{"q": secret, "n": 1.5, "l": []any{"x", 2.0, nil, true}, "o": map[string]any{"é": "<>"}}, Error: secret},
		&events.AgentResponded{QueryID: "q1", User: "alice", Round: 1, Agent: "a", Subquery: secret, Response: secret,
			Resources: []string{}, FragmentsRead: []string{"f1"}},
		&events.QueryAnswered{QueryID: "q1", User: "alice", Answer: secret, FragmentsWritten: []string{}},
		&events.MemoryRead{User: "alice", Agent: "a", Query: secret},
		&events.GraphRead{User: "alice", Agent: "a", Query: secret},
	}
}

// TestOpenedPayloadIsTheDecodedData: the payload OpenPayload hands a
// reader is exactly what decoding its opened data gives, for every type
// with content, opened and erased; and where it cannot be (invalid UTF-8,
// which encoding/json replaces) none is handed over.
func TestOpenedPayloadIsTheDecodedData(t *testing.T) {
	ctx := t.Context()
	for _, erase := range []bool{false, true} {
		keys := &memKeys{keys: map[string][]byte{}}
		s := shred.NewSealer(keys)
		for _, p := range contentPayloads() {
			sealed, err := s.Seal(ctx, envelope(t, p))
			if err != nil {
				t.Fatal(err)
			}
			if erase {
				clear(keys.keys)
			}
			opened, got, err := s.OpenPayload(ctx, sealed)
			if err != nil {
				t.Fatal(err)
			}
			want, err := opened.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatalf("%s (erased %v): no payload handed over", sealed.Type, erase)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s (erased %v): handed\n %#v\nbut the data decodes to\n %#v", sealed.Type, erase, got, want)
			}
		}
	}
	// Text sealed from bytes that are not UTF-8 (cmem never writes them,
	// but whoever holds the key could).
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	sealed, err := s.Seal(ctx, envelope(t, &events.QuerySubmitted{ID: "q1", User: "alice", Text: "placeholder", Channel: "http"}))
	if err != nil {
		t.Fatal(err)
	}
	id := shred.KeyID(events.DataSubject{User: "alice", Query: "q1"})
	var data map[string]any
	if err := json.Unmarshal(sealed.Data, &data); err != nil {
		t.Fatal(err)
	}
	data["text"] = sealField(t, keys.keys[id], id, []byte("bad \xff byte"))
	if sealed.Data, err = json.Marshal(data); err != nil {
		t.Fatal(err)
	}
	opened, got, err := s.OpenPayload(ctx, sealed)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := opened.Decode(); got != nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("invalid UTF-8: handed %#v, the data decodes to %#v", got, want)
	}
}

// sealField seals plain under key as a sealed field of id.
func sealField(t *testing.T, key []byte, id string, plain []byte) string {
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(b)
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, aead.NonceSize())
	return "sealed:v1:" + id + ":" + base64.RawStdEncoding.EncodeToString(aead.Seal(nonce, nonce, plain, []byte(id)))
}

// TestDestroyedKeyStaysDestroyedWithTheCipherCached: the sealer keeps the
// cipher setup of a key it has used, yet the keyring is asked on every
// event: once the key is destroyed, the next event sealed under it reads
// as erased, not as the plaintext.
func TestDestroyedKeyStaysDestroyedWithTheCipherCached(t *testing.T) {
	ctx := t.Context()
	keys := &memKeys{keys: map[string][]byte{}}
	s := shred.NewSealer(keys)
	var sealed []events.Envelope
	for _, text := range []string{"first " + secret, "second " + secret} {
		e, err := s.Seal(ctx, envelope(t, &events.QuerySubmitted{ID: "q1", User: "alice", Text: text, Channel: "http"}))
		if err != nil {
			t.Fatal(err)
		}
		sealed = append(sealed, e)
	}
	text := func(e events.Envelope) string {
		_, p, err := s.OpenPayload(ctx, e)
		if err != nil || p == nil {
			t.Fatalf("open: %v, %v", p, err)
		}
		return p.(*events.QuerySubmitted).Text
	}
	if got := text(sealed[0]); got != "first "+secret {
		t.Fatalf("opened %q before the key was destroyed", got)
	}
	delete(keys.keys, shred.KeyID(events.DataSubject{User: "alice", Query: "q1"}))
	for _, e := range sealed {
		if got := text(e); got != events.Erased {
			t.Fatalf("opened %q after the key was destroyed", got)
		}
	}
}
