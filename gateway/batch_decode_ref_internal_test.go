package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// batchItemReference is batchItem as it was written on encoding/json (a
// map, then the struct), kept to hold the one-pass reader to it.
func batchItemReference(raw json.RawMessage) (app.BatchItem, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return app.BatchItem{}, fmt.Errorf("%w: an item must be a JSON object", domain.ErrInvalid)
	}
	var b batchItemBody
	if err := json.Unmarshal(fields["op"], &b.Op); err != nil {
		return app.BatchItem{}, fmt.Errorf("%w: op must be a string", domain.ErrInvalid)
	}
	delete(fields, "op")
	if b.Op == app.OpRegisterResource {
		return resourceItem(fields)
	}
	allowed, ok := batchFields[b.Op]
	if !ok {
		return app.BatchItem{Op: b.Op}, nil // Batch names the ops there are
	}
	for name := range fields {
		if !slices.Contains(allowed, name) {
			return app.BatchItem{}, fmt.Errorf("%w: %s takes no field %q", domain.ErrInvalid, b.Op, name)
		}
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return app.BatchItem{}, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	wr, err := b.request()
	if err != nil {
		return app.BatchItem{}, err
	}
	it := app.BatchItem{Op: b.Op, ID: b.ID, Role: b.Role, Description: b.Description, SystemPrompt: b.SystemPrompt,
		Write: wr}
	if b.Op == app.OpGrant || b.Op == app.OpRevoke {
		switch b.Edge {
		case "user-agent", "agent-resource":
		default:
			return app.BatchItem{}, fmt.Errorf("%w: edge must be \"user-agent\" or \"agent-resource\", got %q", domain.ErrInvalid, b.Edge)
		}
		it.Edge = app.Edge{UserAgent: b.Edge == "user-agent", From: b.From, To: b.To}
		term, err := b.term()
		if err != nil {
			return app.BatchItem{}, err
		}
		it.Term = term
	}
	return it, nil
}

// itemSeeds are batch items of every op, with null, wrong-typed, escaped,
// non-ASCII and invalid UTF-8 values, fields an op does not take, a
// missing or odd op, and non-objects.
var itemSeeds = []string{
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench"}`,
	`{"edge":"agent-resource","to":"r","from":"a","op":"grant","ttl":"8h"}`,
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench","expires_at":"2026-11-22T18:00:00Z"}`,
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench","expires_at":null,"ttl":null}`,
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench","ttl":"soon"}`,
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench","ttl":5}`,
	`{"op":"revoke","edge":"user-agent","from":"b\u00e91","to":"be\"nch"}`,
	`{"op":"revoke","edge":"user-agent","from":"b1","to":"bench","ttl":"1h"}`,
	`{"op":"revoke","edge":"sideways","from":"b1","to":"bench"}`,
	`{"op":"revoke","edge":null,"from":"b1","to":"bench"}`,
	`{"op":"register_user","id":"u1","role":"user"}`, `{"op":"register_user","id":"u1","role":7}`,
	`{"op":"register_user","id":"u\ud800x"}`, "{\"op\":\"register_user\",\"id\":\"u\xffx\"}",
	`{"op":"register_agent","id":"a","description":"d <b>&","system_prompt":"be \\ kind\n"}`,
	`{"op":"register_resource","id":"r","kind":"docs","description":"d","extra":{"x":1}}`,
	`{"op":"register_resource","id":3}`,
	`{"op":"write_fragment","agent":"a","resources":["r1","r2"],"key":"k","value":"v","tier":"t","derived_from":null,"observed_at":"2026-01-02"}`,
	`{"op":"write_fragment","agent":"a","resources":"r1","key":"k","value":"v"}`,
	`{"op":"write_fragment","agent":"a","resources":[1],"key":"k","value":"v"}`,
	`{"op":"write_fragment","agent":"a","key":"k","value":"v","observed_at":"yesterday"}`,
	`{"op":"grant","edge":"user-agent","from":"b1","to":"bench","id":"x"}`,
	`{"op":"grant","Edge":"user-agent"}`, `{"op":"teleport","anything":1}`, `{"op":null}`, `{"op":1}`,
	`{}`, `{"edge":"user-agent"}`, `null`, `[1]`, `"grant"`, `3`, ` { "op" : "grant" , "edge" : "user-agent" , "from" : "b" , "to" : "c" } `,
}

// sameItem fails t unless both decoders answer raw alike: equal items, or
// both ErrInvalid (the messages of a wrong-typed value may word the place
// differently).
func sameItem(t *testing.T, raw []byte) {
	t.Helper()
	got, gotErr := batchItem(raw)
	want, wantErr := batchItemReference(raw)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Fatalf("%s: batchItem %+v, %v; the reference %+v, %v", raw, got, gotErr, want, wantErr)
	case gotErr != nil:
		if !errors.Is(gotErr, domain.ErrInvalid) || !errors.Is(wantErr, domain.ErrInvalid) {
			t.Fatalf("%s: errors %v and %v, want both ErrInvalid", raw, gotErr, wantErr)
		}
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%s: batchItem %#v, the reference %#v", raw, got, want)
	}
}

// TestBatchItemMatchesReference: on items of every op and on thousands of
// random recombinations of their members, the one-pass reader decodes
// exactly what the encoding/json decoder did and refuses what it refused.
func TestBatchItemMatchesReference(t *testing.T) {
	accepted := 0
	for _, s := range itemSeeds {
		sameItem(t, []byte(s))
		if _, err := batchItemReference([]byte(s)); err == nil {
			accepted++
		}
	}
	if accepted < 8 {
		t.Fatalf("only %d seeds accepted: the comparison proves little", accepted)
	}
	// Recombine members of the object seeds into new items.
	var pool []itemMember
	for _, s := range itemSeeds {
		if ms, ok := itemMembers([]byte(s)); ok {
			pool = append(pool, ms...)
		}
	}
	r := rand.New(rand.NewPCG(28, 3))
	ops := []string{"grant", "revoke", "register_user", "register_agent", "register_resource", "write_fragment"}
	for range 5000 {
		n := r.IntN(6)
		seen := map[string]bool{"op": true}
		raw := fmt.Appendf(nil, `{"op":%q`, ops[r.IntN(len(ops))])
		for range n {
			m := pool[r.IntN(len(pool))]
			if seen[m.name] {
				continue // the body check refuses duplicates before items are read
			}
			seen[m.name] = true
			raw = fmt.Appendf(raw, `,%s:%s`, mustQuote(m.name), m.value)
		}
		raw = append(raw, '}')
		if !json.Valid(raw) {
			t.Fatalf("built invalid JSON %s", raw)
		}
		sameItem(t, raw)
	}
}

func mustQuote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
