package memory_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/snapshot"
)

// The hashes of erased values are part of the registry: applied from the
// log, kept per scope, carried through a snapshot and restored from it.
func TestErasedValuesApplyAndSnapshot(t *testing.T) {
	ctx := context.Background()
	r := &registry{t: t, fs: memory.NewFragments()}
	h1, h2 := strings.Repeat("a", 64), strings.Repeat("b", 64)
	r.apply(&events.ValuesErased{Scope: "project_heron", User: "ava", Values: []events.ErasedValue{{SHA256: h1, Words: 1}}})
	r.apply(&events.ValuesErased{Scope: "project_heron", User: "ava", Values: []events.ErasedValue{{SHA256: h2, Words: 2}}})
	got := r.fs.ErasedValues("project_heron")
	if got[h1] != 1 || got[h2] != 2 || len(got) != 2 {
		t.Fatalf("erased values %v, want both hashes", got)
	}
	if other := r.fs.ErasedValues("project_osprey"); len(other) != 0 {
		t.Fatalf("another scope holds %v", other)
	}
	data, err := r.fs.MarshalSnapshot(ctx, snapshot.Clear{})
	if err != nil {
		t.Fatal(err)
	}
	back := memory.NewFragments()
	done, err := back.RestoreSnapshot(ctx, snapshot.Clear{}, r.rev, data)
	if err != nil {
		t.Fatal(err)
	}
	done()
	if b := back.ErasedValues("project_heron"); b[h1] != 1 || b[h2] != 2 {
		t.Fatalf("restored erased values %v", b)
	}
}
