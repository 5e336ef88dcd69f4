package weaviate

import (
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
)

// The label is a content address: the same reader class whatever the
// order or repetition of its sets, another label for any other class.
func TestReaderLabelIsContentAddressed(t *testing.T) {
	f := func(tier, user string, agents, resources []string) vectors.Filter {
		return vectors.Filter{Tier: tier, User: user, AllowedAgents: agents, AllowedResources: resources}
	}
	base := readerLabel(f("private", "alice", []string{"a", "b"}, []string{"r"}))
	if got := readerLabel(f("private", "alice", []string{"b", "a", "a"}, []string{"r"})); got != base {
		t.Fatalf("order or repetition changed the label: %s vs %s", got, base)
	}
	for name, other := range map[string]vectors.Filter{
		"revoked agent":     f("private", "alice", []string{"a"}, []string{"r"}),
		"granted resource":  f("private", "alice", []string{"a", "b"}, []string{"r", "s"}),
		"other user":        f("private", "bob", []string{"a", "b"}, []string{"r"}),
		"other tier":        f("shared", "alice", []string{"a", "b"}, []string{"r"}),
		"agent as resource": f("private", "alice", []string{"a"}, []string{"b", "r"}),
	} {
		if readerLabel(other) == base {
			t.Errorf("%s: same label as the base class", name)
		}
	}
	if readerLabel(f("shared", "alice", []string{"a"}, nil)) != readerLabel(f("shared", "bob", []string{"a"}, nil)) {
		t.Error("the shared tier ignores the user, yet two users' equal sets got two labels")
	}
}

func TestLabelsForAdmittingClassesOnly(t *testing.T) {
	r := newReaders(10, time.Hour)
	ab := vectors.Filter{Tier: "shared", AllowedAgents: []string{"a", "b"}}
	a := vectors.Filter{Tier: "shared", AllowedAgents: []string{"a"}}
	priv := vectors.Filter{Tier: "private", User: "alice", AllowedAgents: []string{"a", "b"}}
	for _, f := range []vectors.Filter{ab, a, priv} {
		r.register(readerLabel(f), f)
	}
	for _, tc := range []struct {
		frag vectors.Fragment
		want []vectors.Filter
	}{
		{vectors.Fragment{Tier: "shared", Agents: []string{"a"}}, []vectors.Filter{ab, a}},
		{vectors.Fragment{Tier: "shared", Agents: []string{"a", "b"}}, []vectors.Filter{ab}},
		{vectors.Fragment{Tier: "shared", Agents: []string{"c"}}, nil},
		{vectors.Fragment{Tier: "shared", Agents: []string{"a"}, Resources: []string{"r"}}, nil},
		{vectors.Fragment{Tier: "private", User: "alice", Agents: []string{"b"}}, []vectors.Filter{priv}},
		{vectors.Fragment{Tier: "private", User: "bob", Agents: []string{"b"}}, nil},
	} {
		want := []string{}
		for _, f := range tc.want {
			want = append(want, readerLabel(f))
		}
		slices.Sort(want)
		if got := r.labelsFor(&tc.frag); !slices.Equal(got, want) {
			t.Errorf("labels of %+v = %v, want %v", tc.frag, got, want)
		}
	}
}

func TestEvictionDropsIdleThenLeastRecentlyUsed(t *testing.T) {
	r := newReaders(2, time.Hour)
	fs := []vectors.Filter{
		{Tier: "shared", AllowedAgents: []string{"a"}},
		{Tier: "shared", AllowedAgents: []string{"b"}},
		{Tier: "shared", AllowedAgents: []string{"c"}},
	}
	now := time.Now()
	for i, f := range fs {
		r.register(readerLabel(f), f)
		r.classes[readerLabel(f)].used.Store(now.Add(time.Duration(i) * time.Millisecond).UnixNano()) // a, then b, then c used last
	}
	labels := func(cs []*readerClass) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.label)
		}
		return out
	}
	if got := labels(r.victimsLocked(now)); !slices.Equal(got, []string{readerLabel(fs[0])}) {
		t.Fatalf("beyond max the least recently used class must go: victims %v", got)
	}
	if got := r.victimsLocked(now.Add(2 * time.Hour)); len(got) != 3 {
		t.Fatalf("idle classes: %d victims, want 3", len(got))
	}
}
