package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// The registry lists what was observed within a window of a fragment, in
// either direction and across a minute's boundary, forgets a deleted
// fragment, and keeps the index through a snapshot.
func TestObservedNear(t *testing.T) {
	r := &registry{t: t, fs: memory.NewFragments()}
	at := day(1).Add(59 * time.Second)
	r.write("f0", "alice", "shared", "k0", at)
	r.write("f1", "bob", "shared", "k1", at.Add(30*time.Second)) // the next minute
	r.write("f2", "alice", "private", "k2", at.Add(-60*time.Second))
	r.write("f3", "alice", "shared", "k3", at.Add(61*time.Second))
	r.write("f4", "alice", "shared", "k4", day(2))
	if got := ids(r.fs.ObservedNear("f0", time.Minute)); got != "f2,f1" {
		t.Fatalf("near f0: %q, want f2,f1 (by observed time, whoever wrote them)", got)
	}
	if got := ids(r.fs.ObservedNear("f1", time.Minute)); got != "f0,f3" {
		t.Fatalf("near f1: %q", got)
	}
	if got := ids(r.fs.ObservedNear("unknown", time.Minute)); got != "" {
		t.Fatalf("near an unknown id: %q", got)
	}
	r.apply(&events.FragmentDeleted{ID: "f1", User: "bob", Derived: []string{}, Queries: []string{}})
	if got := ids(r.fs.ObservedNear("f0", time.Minute)); got != "f2" {
		t.Fatalf("near f0 after f1's deletion: %q", got)
	}
	ctx := context.Background()
	s := lossySealer{gone: map[string]bool{}}
	data, err := r.fs.MarshalSnapshot(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	back := memory.NewFragments()
	done, err := back.RestoreSnapshot(ctx, s, r.rev, data)
	if err != nil {
		t.Fatal(err)
	}
	done()
	if got := ids(back.ObservedNear("f3", 3*time.Minute)); got != "f2,f0" {
		t.Fatalf("restored, near f3: %q", got)
	}
}
