package audittest

import (
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
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	f := newForgery[string](t, newBackend, t0)
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
	f.next(&events.UserRegistered{ID: "alice", Role: "user", TokenSHA256: strings.Repeat("a", 64)})
	f.next(&events.UserRegistered{ID: "bob", Role: "user", TokenSHA256: strings.Repeat("b", 64)})
	f.next(&events.AgentRegistered{ID: "planner", Description: "d"})
	f.next(&events.ResourceRegistered{ID: "guide", Kind: "knowledge_base", Description: "d"})
	f.next(&events.UserAgentGranted{User: "alice", Agent: "planner"})
	f.next(&events.UserAgentGranted{User: "bob", Agent: "planner"})
	f.next(&events.AgentResourceGranted{Agent: "planner", Resource: "guide"})
	f.next(fragment("fp", events.TierPrivate))
	head := f.next(fragment("fs", events.TierShared))
	f.next(read("bob", head, nil, []string{"fs"}))
	f.next(read("alice", head, []string{"fp"}, []string{"fs"}))
	beforeRevoke := f.next(read("alice", head, nil, nil))
	revoke := f.next(&events.AgentResourceRevoked{Agent: "planner", Resource: "guide"})
	// Started before the revoke was acknowledged, logged after it: honest.
	f.next(read("bob", beforeRevoke, nil, []string{"fs"}))
	f.honest()

	f.forge(read("bob", revoke, nil, []string{"fp"}), audit.ReasonPrivate)
	f.forge(read("alice", revoke, nil, []string{"fs"}), audit.ReasonProvenance)
	f.forge(read("alice", f.base+50, nil, []string{"fs"}), audit.ReasonFutureGraph)
	f.forge(read("bob", revoke, nil, []string{"nowhere"}), audit.ReasonUnknownFragment)
	// The reference answers alike (subject checks it on every question).
	f.found(func(x audit.Read, reason string) bool { return x.Reason == reason })
	verdicts(t, "reads of fs", f.s.reads(t, "fs"), true, true, true, false, false)
}
