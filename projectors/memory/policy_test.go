package memory_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

func policyRecord(t *testing.T, rev uint64, p *events.PolicySet) events.Record {
	t.Helper()
	e, err := events.New(events.Meta{Source: "t", Actor: "admin"}, p)
	if err != nil {
		t.Fatal(err)
	}
	return events.Record{Envelope: e, Revision: rev}
}

func TestResolvePrecedenceAndEffectiveTime(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	ps := memory.NewPolicies()
	sets := []*events.PolicySet{
		{Target: memory.TargetWriteShared, Kind: "redact", EffectiveAt: t0},                                                      // global
		{Target: memory.TargetWriteShared, Scope: events.PolicyScope{Agent: "a"}, Kind: "llm", EffectiveAt: t0},                  // agent
		{Target: memory.TargetWriteShared, Scope: events.PolicyScope{User: "u"}, Kind: "simple", EffectiveAt: t0.Add(time.Hour)}, // user, later
		{Target: memory.TargetWriteShared, Scope: events.PolicyScope{User: "u", Agent: "a"}, Kind: "block",
			Config: json.RawMessage(`{"patterns":["x"]}`), EffectiveAt: t0.Add(2 * time.Hour)}, // user+agent, latest
		{Target: memory.TargetWriteShared, Kind: "simple", EffectiveAt: t0.Add(3 * time.Hour)}, // global again
	}
	for i, p := range sets {
		if err := ps.Apply(policyRecord(t, uint64(i+1), p)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		user, agent string
		at          time.Time
		want        string
	}{
		{"u", "a", t0.Add(-time.Minute), "simple"},  // nothing in force yet: built-in default
		{"u", "a", t0, "llm"},                       // agent beats global
		{"u", "b", t0, "redact"},                    // only global applies
		{"u", "a", t0.Add(time.Hour), "simple"},     // user beats agent once effective
		{"u", "a", t0.Add(2 * time.Hour), "block"},  // user+agent beats all
		{"v", "a", t0.Add(4 * time.Hour), "llm"},    // agent scope still beats the newer global
		{"v", "b", t0.Add(4 * time.Hour), "simple"}, // latest global
		{"u", "a", t0.Add(150 * time.Minute), "block"},
	}
	for _, c := range cases {
		got := ps.Resolve(memory.TargetWriteShared, c.user, c.agent, c.at)
		if got.Kind != c.want {
			t.Errorf("Resolve(%s,%s,%s) = %s (scope %s), want %s", c.user, c.agent, c.at.Sub(t0), got.Kind, got.Scope.Key(), c.want)
		}
	}
	if got := ps.Resolve(memory.TargetWritePrivate, "u", "a", t0.Add(5*time.Hour)); got.Kind != "simple" || got.Event != "" {
		t.Errorf("private tier must be untouched by shared-tier policies: %+v", got)
	}
	if got := ps.Resolve(memory.TargetProvenance, "u", "a", t0); got.Kind != events.ProvenanceTransitive {
		t.Errorf("default provenance = %s, want transitive", got.Kind)
	}
	if n := len(ps.List()); n != len(sets) {
		t.Errorf("List has %d settings, want %d", n, len(sets))
	}
}

func TestCheckPolicy(t *testing.T) {
	ok := []struct{ target, kind, config string }{
		{"write_private", "simple", ""},
		{"write_shared", "redact", `{"emails":false}`},
		{"write_shared", "block", `{"patterns":["(?i)secret"]}`},
		{"write_private", "llm", `{"prompt":"Remember facts."}`},
		{"read", "filter", `{"keywords":["lyon"],"limit":3}`},
		{"read", "llm", `{"transform":"paraphrase"}`},
		{"provenance", "direct", ""},
	}
	for _, c := range ok {
		if err := memory.CheckPolicy(c.target, c.kind, json.RawMessage(c.config)); err != nil {
			t.Errorf("%+v rejected: %v", c, err)
		}
	}
	bad := []struct{ target, kind, config, mentions string }{
		{"write", "simple", "", "unknown target"},
		{"write_shared", "filter", "", "not one of"},
		{"write_shared", "block", `{}`, "at least one pattern"},
		{"write_shared", "block", `{"patterns":["("]}`, "missing closing"},
		{"write_shared", "redact", `{"emaills":true}`, "unknown field"},
		{"read", "llm", `{}`, "needs transform"},
		{"read", "filter", `{"transform":"redact"}`, "needs kind llm"},
		{"read", "filter", `{"limit":-1}`, "negative"},
		{"provenance", "direct", `{"x":1}`, "takes no config"},
	}
	for _, c := range bad {
		err := memory.CheckPolicy(c.target, c.kind, json.RawMessage(c.config))
		if !errors.Is(err, memory.ErrPolicyConfig) || !contains(err.Error(), c.mentions) {
			t.Errorf("%+v: got %v, want ErrPolicyConfig mentioning %q", c, err, c.mentions)
		}
	}
}

func TestDerive(t *testing.T) {
	src := []memory.Provenance{{Agents: []string{"b", "a"}, Resources: []string{"r2"}}, {Agents: []string{"c"}, Resources: []string{"r1", "r2"}}}
	got := memory.Derive(events.ProvenanceTransitive, "a", []string{"r3"}, src)
	if !equal(got.Agents, []string{"a", "b", "c"}) || !equal(got.Resources, []string{"r1", "r2", "r3"}) {
		t.Fatalf("transitive: %+v", got)
	}
	got = memory.Derive(events.ProvenanceDirect, "a", []string{"r3"}, src)
	if !equal(got.Agents, []string{"a"}) || !equal(got.Resources, []string{"r3"}) {
		t.Fatalf("direct: %+v", got)
	}
	if got = memory.Derive(events.ProvenanceTransitive, "a", nil, nil); got.Resources == nil {
		t.Fatal("resources must be an empty list, not nil (it is serialised)")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func equal(a, b []string) bool { return slices.Equal(a, b) }
