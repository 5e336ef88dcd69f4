package memory_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/snapshot"
)

// registry applies payloads to a fresh registry, one revision each.
type registry struct {
	t   *testing.T
	fs  *memory.Fragments
	rev uint64
}

func (r *registry) apply(p events.Payload) {
	r.t.Helper()
	r.rev++
	e, err := events.New(events.Meta{Source: "t", Actor: "u", Time: time.Date(2026, 1, 1, 0, 0, int(r.rev), 0, time.UTC)}, p)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.fs.Apply(events.Record{Envelope: e, Revision: r.rev}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *registry) write(id, user, tier, key string, observed time.Time) {
	r.apply(&events.FragmentWritten{ID: id, Key: key, Value: "v", Tier: tier, User: user, Agents: []string{"a"},
		Resources: []string{}, Provenance: "direct", Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}, ObservedAt: &observed,
		TimeRefs: []events.TimeRef{{Text: "last week", Start: "2023-05-29", End: "2023-06-05", Grain: "week"}}})
}

func day(d int) time.Time { return time.Date(2023, 5, d, 0, 0, 0, 0, time.UTC) }

func ids(fs []memory.FragmentInfo) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return strings.Join(out, ",")
}

func TestFactKey(t *testing.T) {
	for key, want := range map[string]string{
		"The capital of France?":                "capital of france",
		"  Lumen Cooperative: Q3 revenue ":      "lumen cooperative q3 revenue",
		"Alice's favourite food":                "alice favourite food",
		"an apple a day":                        "apple day",
		"...":                                   "",
		"Caroline's 'charity race' date":        "caroline charity race date",
		"third-quarter revenue of Lumen bakery": "third quarter revenue of lumen bakery",
	} {
		if got := memory.FactKey(key); got != want {
			t.Errorf("FactKey(%q) = %q, want %q", key, got, want)
		}
	}
}

// Versions are one group per fact, oldest observed first; the same key in
// another tier, or another user's private fragment, is another fact.
func TestVersionsOfAFact(t *testing.T) {
	r := &registry{t: t, fs: memory.NewFragments()}
	r.write("f1", "alice", "shared", "Lumen revenue", day(1))
	r.write("f2", "bob", "shared", "lumen  REVENUE!", day(3))
	r.write("f3", "alice", "private", "Lumen revenue", day(2))
	r.write("f4", "bob", "private", "Lumen revenue", day(2))
	f2, _ := r.fs.Get("f2")
	if got := ids(r.fs.SameFactAs(f2)); got != "f1" {
		t.Fatalf("same fact as f2: %s, want f1 only", got)
	}
	if r.fs.HasVersions() {
		t.Fatal("no supersession yet, but the registry has versions")
	}
	r.apply(&events.FragmentSuperseded{Old: "f1", New: "f2", User: "bob", Agent: "a", Tier: "shared", Agents: []string{"a"},
		Resources: []string{}, Decision: memory.RuleSameKey})
	r.write("f5", "alice", "shared", "Lumen revenue", day(2)) // observed between the two
	r.apply(&events.FragmentSuperseded{Old: "f2", New: "f5", User: "alice", Agent: "a", Tier: "shared", Agents: []string{"a"},
		Resources: []string{}, Decision: memory.RuleSameKey})
	if got := ids(r.fs.Versions("f1")); got != "f1,f5,f2" {
		t.Fatalf("versions %s, want f1,f5,f2 by observed time", got)
	}
	if got := ids(r.fs.Versions("f3")); got != "f3" {
		t.Fatalf("a fragment without versions: %s", got)
	}
	// Erasing the newest keeps the rest of the group together.
	r.apply(&events.FragmentDeleted{ID: "f2", User: "bob", Derived: []string{}, Queries: []string{}})
	if got := ids(r.fs.Versions("f5")); got != "f1,f5" {
		t.Fatalf("after erasing f2: %s, want f1,f5", got)
	}
	if got := ids(r.fs.SameFactAs(memory.FragmentInfo{ID: "new", Tier: "shared", Fact: "lumen revenue"})); got != "f1,f5" && got != "f5,f1" {
		t.Fatalf("an erased fragment is still a candidate: %s", got)
	}
}

// lossySealer seals like Clear, but its keys of erased fragments are gone.
type lossySealer struct {
	snapshot.Clear
	gone map[string]bool
}

func (s lossySealer) Seal(ctx context.Context, d events.DataSubject, plain []byte) (string, error) {
	if s.gone[d.Fragment] {
		return "", snapshot.ErrGone
	}
	return "x" + d.Fragment + ":" + strings.Repeat("*", len(plain)) + "|" + mustClear(ctx, plain), nil
}

func mustClear(ctx context.Context, plain []byte) string {
	s, _ := snapshot.Clear{}.Seal(ctx, events.DataSubject{}, plain)
	return s
}

func (s lossySealer) Open(ctx context.Context, sealed string) ([]byte, error) {
	id := sealed[1:strings.Index(sealed, ":")]
	if s.gone[id] {
		return nil, snapshot.ErrGone
	}
	return snapshot.Clear{}.Open(ctx, sealed[strings.Index(sealed, "|")+1:])
}

// A snapshot holds no fact key or time expression in clear, restores the
// groups, and drops the content of a fragment erased since.
func TestRegistrySnapshotSealsContent(t *testing.T) {
	ctx := context.Background()
	r := &registry{t: t, fs: memory.NewFragments()}
	r.write("f1", "alice", "shared", "secret-marker revenue", day(1))
	r.write("f2", "alice", "shared", "Secret-marker revenue", day(2))
	r.apply(&events.FragmentSuperseded{Old: "f1", New: "f2", User: "alice", Agent: "a", Tier: "shared", Agents: []string{"a"},
		Resources: []string{}, Decision: memory.RuleSameKey})
	s := lossySealer{gone: map[string]bool{}}
	data, err := r.fs.MarshalSnapshot(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "secret") || strings.Contains(string(data), "2023-05-29") {
		t.Fatalf("the snapshot holds content in clear: %s", data)
	}
	s.gone["f1"] = true
	back := memory.NewFragments()
	done, err := back.RestoreSnapshot(ctx, s, r.rev, data)
	if err != nil {
		t.Fatal(err)
	}
	done()
	f2, _ := back.Get("f2")
	f1, _ := back.Get("f1")
	if f2.Fact != "secret marker revenue" || len(f2.TimeRefs) != 1 || f1.Fact != "" {
		t.Fatalf("restored f2 %+v, f1 %+v", f2, f1)
	}
	if got := ids(back.Versions("f2")); got != "f1,f2" {
		t.Fatalf("restored versions %s", got)
	}
}
