package audittest

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

// ForgedAnswers checks deliveries, a delivery being a read by the user
// itself. Honest deliveries (labels within what the user could reach, one
// served from a graph a revoke overtook while it ran, an answer from the
// user's own words) leave the violations report empty; deliveries forged
// onto the log — an answer labelled with an agent the user may not invoke,
// with a resource no agent of the label may use, one served after the
// revoke it should have seen, one claiming a graph from its future — are
// found, with the edge that was missing, and the backend agrees with the
// reference.
//
// Run runs it; it is exported for the same reason as ForgedReads.
func ForgedAnswers(t *testing.T, newBackend NewBackend) {
	type want struct{ reason, detail string }
	f := newForgery[want](t, newBackend, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	label := func(agents, resources []string) events.Label {
		return events.Label{Agents: agents, Resources: resources}
	}
	deliver := func(user, query string, graphRev uint64, l events.Label) events.Payload {
		return &events.QueryDelivered{QueryID: query, User: user, Channel: "http", Status: "answered", GraphRevision: graphRev, Label: l}
	}
	f.next(&events.UserRegistered{ID: "alice", Role: "user", TokenSHA256: strings.Repeat("a", 64)})
	f.next(&events.UserRegistered{ID: "bob", Role: "user", TokenSHA256: strings.Repeat("b", 64)})
	for _, a := range []string{"planner", "payroll"} {
		f.next(&events.AgentRegistered{ID: a, Description: "d"})
	}
	for _, res := range []string{"guide", "salaries"} {
		f.next(&events.ResourceRegistered{ID: res, Kind: "knowledge_base", Description: "d"})
	}
	f.next(&events.UserAgentGranted{User: "alice", Agent: "planner"})
	f.next(&events.UserAgentGranted{User: "alice", Agent: "payroll"})
	f.next(&events.UserAgentGranted{User: "bob", Agent: "planner"})
	f.next(&events.AgentResourceGranted{Agent: "planner", Resource: "guide"})
	head := f.next(&events.AgentResourceGranted{Agent: "payroll", Resource: "salaries"})
	f.next(deliver("alice", "qa", head, label([]string{"payroll", "planner"}, []string{"guide", "salaries"})))
	beforeRevoke := f.next(deliver("bob", "qb", head, label([]string{"planner"}, []string{"guide"})))
	f.next(deliver("bob", "qc", head, label([]string{}, []string{})))
	revoke := f.next(&events.AgentResourceRevoked{Agent: "planner", Resource: "guide"})
	// Rendered before the revoke was acknowledged, logged after it: honest.
	f.next(deliver("bob", "qb", beforeRevoke, label([]string{"planner"}, []string{"guide"})))
	f.honest()

	// bob's answer quoting the payroll agent's salaries.
	f.forge(deliver("bob", "qb", revoke, label([]string{"payroll", "planner"}, []string{"salaries"})),
		want{audit.ReasonLabel, "agent payroll is not available to bob"})
	// The same text with the agent left off its label: the resource still
	// has to be usable by an agent of the label.
	f.forge(deliver("bob", "qb", revoke, label([]string{"planner"}, []string{"salaries"})),
		want{audit.ReasonLabel, "resource salaries is not usable by any agent bob may invoke"})
	// Served on the graph after the revoke, with what the revoke removed.
	f.forge(deliver("alice", "qa", revoke, label([]string{"planner"}, []string{"guide"})),
		want{audit.ReasonLabel, "resource guide is not usable by any agent alice may invoke"})
	f.forge(deliver("alice", "qa", f.base+50, label([]string{"planner"}, []string{})), want{audit.ReasonFutureGraph, ""})

	// The reference answers alike (subject checks it on every question).
	f.found(func(x audit.Read, w want) bool {
		return x.Kind == audit.KindDelivery && x.Query != "" && x.Fragment == "" && x.Label != nil &&
			x.Reason == w.reason && x.Detail == w.detail
	})
	verdicts(t, "deliveries of qb", f.s.deliveries(t, "qb"), true, true, false, false)
}
