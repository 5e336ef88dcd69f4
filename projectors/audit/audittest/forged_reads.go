package audittest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

// ForgedReads checks that honest reads leave the violations report empty,
// including one served from a graph a revoke overtook while it ran, and
// that reads forged onto the log (a cross-user private read, a read the
// graphs at its revision did not allow, a read claiming a graph from its
// future) are found, with their reasons, and the backend agrees with the
// reference.
//
// Run runs it; it is exported so that a backend's package can also run it
// as a test of its own name, which the rule-mutation check of package
// access names.
func ForgedReads(t *testing.T, newBackend NewBackend) {
	r := start(t, newBackend)
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var envs []events.Envelope
	next := func(p events.Payload) uint64 {
		envs = append(envs, event(t, t0.Add(time.Duration(len(envs))*time.Second), p))
		return uint64(len(envs)) // revision on a fresh log
	}
	policy := events.PolicyTrace{Kind: "simple", Scope: "global"}
	fragment := func(id, tier string) events.Payload {
		return &events.FragmentWritten{ID: id, Key: id, Value: "v", Tier: tier, User: "alice", Agents: []string{"planner"},
			Resources: []string{"guide"}, CreatedAt: t0, Provenance: events.ProvenanceTransitive, Policy: policy}
	}
	read := func(user string, graphRev uint64, private, shared []string) events.Payload {
		private, shared = append([]string{}, private...), append([]string{}, shared...)
		return &events.MemoryRead{User: user, Agent: "planner", Query: "q", Private: private, Shared: shared,
			GraphRevision: graphRev, KUser: 1, KCross: 1, Policy: policy}
	}
	next(&events.UserRegistered{ID: "alice", Role: "user", TokenSHA256: strings.Repeat("a", 64)})
	next(&events.UserRegistered{ID: "bob", Role: "user", TokenSHA256: strings.Repeat("b", 64)})
	next(&events.AgentRegistered{ID: "planner", Description: "d"})
	next(&events.ResourceRegistered{ID: "guide", Kind: "knowledge_base", Description: "d"})
	next(&events.UserAgentGranted{User: "alice", Agent: "planner"})
	next(&events.UserAgentGranted{User: "bob", Agent: "planner"})
	next(&events.AgentResourceGranted{Agent: "planner", Resource: "guide"})
	next(fragment("fp", events.TierPrivate))
	head := next(fragment("fs", events.TierShared))
	next(read("bob", head, nil, []string{"fs"}))
	next(read("alice", head, []string{"fp"}, []string{"fs"}))
	beforeRevoke := next(read("alice", head, nil, nil))
	revoke := next(&events.AgentResourceRevoked{Agent: "planner", Resource: "guide"})
	// Started before the revoke was acknowledged, logged after it: honest.
	next(read("bob", beforeRevoke, nil, []string{"fs"}))
	r.append(t, envs)
	if v := r.violations(t); len(v) != 0 {
		t.Fatalf("violations of an honest log: %+v", v)
	}

	base := uint64(len(envs)) + 1
	envs = envs[:0]
	forged := map[uint64]string{}
	at := func(p events.Payload, reason string) {
		envs = append(envs, event(t, t0.Add(time.Hour+time.Duration(len(envs))*time.Second), p))
		forged[base+uint64(len(envs)-1)] = reason
	}
	at(read("bob", revoke, nil, []string{"fp"}), audit.ReasonPrivate)
	at(read("alice", revoke, nil, []string{"fs"}), audit.ReasonProvenance)
	at(read("alice", base+50, nil, []string{"fs"}), audit.ReasonFutureGraph)
	at(read("bob", revoke, nil, []string{"nowhere"}), audit.ReasonUnknownFragment)
	r.append(t, envs)

	// The reference answers alike (r.violations and r.reads check it).
	v := r.violations(t)
	if len(v) != len(forged) {
		t.Fatalf("found %d violations, want the %d forged reads: %+v", len(v), len(forged), v)
	}
	for _, x := range v {
		if x.Admissible || forged[x.Revision] != x.Reason {
			t.Fatalf("violation %+v, want reason %q", x, forged[x.Revision])
		}
	}
	reads := r.reads(t, "fs")
	var verdicts []bool
	for _, x := range reads {
		verdicts = append(verdicts, x.Admissible)
	}
	if want := []bool{true, true, true, false, false}; !reflect.DeepEqual(verdicts, want) {
		t.Fatalf("reads of fs judged %v, want %v: %+v", verdicts, want, reads)
	}
}
