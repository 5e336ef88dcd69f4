package audittest

import (
	"reflect"
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
	r := start(t, newBackend)
	t0 := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	var envs []events.Envelope
	next := func(p events.Payload) uint64 {
		envs = append(envs, event(t, t0.Add(time.Duration(len(envs))*time.Second), p))
		return uint64(len(envs)) // revision on a fresh log
	}
	label := func(agents, resources []string) events.Label {
		return events.Label{Agents: agents, Resources: resources}
	}
	deliver := func(user, query string, graphRev uint64, l events.Label) events.Payload {
		return &events.QueryDelivered{QueryID: query, User: user, Channel: "http", Status: "answered", GraphRevision: graphRev, Label: l}
	}
	next(&events.UserRegistered{ID: "alice", Role: "user", TokenSHA256: strings.Repeat("a", 64)})
	next(&events.UserRegistered{ID: "bob", Role: "user", TokenSHA256: strings.Repeat("b", 64)})
	for _, a := range []string{"planner", "payroll"} {
		next(&events.AgentRegistered{ID: a, Description: "d"})
	}
	for _, res := range []string{"guide", "salaries"} {
		next(&events.ResourceRegistered{ID: res, Kind: "knowledge_base", Description: "d"})
	}
	next(&events.UserAgentGranted{User: "alice", Agent: "planner"})
	next(&events.UserAgentGranted{User: "alice", Agent: "payroll"})
	next(&events.UserAgentGranted{User: "bob", Agent: "planner"})
	next(&events.AgentResourceGranted{Agent: "planner", Resource: "guide"})
	head := next(&events.AgentResourceGranted{Agent: "payroll", Resource: "salaries"})
	next(deliver("alice", "qa", head, label([]string{"payroll", "planner"}, []string{"guide", "salaries"})))
	beforeRevoke := next(deliver("bob", "qb", head, label([]string{"planner"}, []string{"guide"})))
	next(deliver("bob", "qc", head, label([]string{}, []string{})))
	revoke := next(&events.AgentResourceRevoked{Agent: "planner", Resource: "guide"})
	// Rendered before the revoke was acknowledged, logged after it: honest.
	next(deliver("bob", "qb", beforeRevoke, label([]string{"planner"}, []string{"guide"})))
	r.append(t, envs)
	if v := r.violations(t); len(v) != 0 {
		t.Fatalf("violations of an honest log: %+v", v)
	}

	base := uint64(len(envs)) + 1
	envs = envs[:0]
	type want struct{ reason, detail string }
	forged := map[uint64]want{}
	at := func(p events.Payload, w want) {
		envs = append(envs, event(t, t0.Add(time.Hour+time.Duration(len(envs))*time.Second), p))
		forged[base+uint64(len(envs)-1)] = w
	}
	// bob's answer quoting the payroll agent's salaries.
	at(deliver("bob", "qb", revoke, label([]string{"payroll", "planner"}, []string{"salaries"})),
		want{audit.ReasonLabel, "agent payroll is not available to bob"})
	// The same text with the agent left off its label: the resource still
	// has to be usable by an agent of the label.
	at(deliver("bob", "qb", revoke, label([]string{"planner"}, []string{"salaries"})),
		want{audit.ReasonLabel, "resource salaries is not usable by any agent bob may invoke"})
	// Served on the graph after the revoke, with what the revoke removed.
	at(deliver("alice", "qa", revoke, label([]string{"planner"}, []string{"guide"})),
		want{audit.ReasonLabel, "resource guide is not usable by any agent alice may invoke"})
	at(deliver("alice", "qa", base+50, label([]string{"planner"}, []string{})), want{audit.ReasonFutureGraph, ""})
	r.append(t, envs)

	// The reference answers alike (r.violations and r.deliveries check it).
	v := r.violations(t)
	if len(v) != len(forged) {
		t.Fatalf("found %d violations, want the %d forged deliveries: %+v", len(v), len(forged), v)
	}
	for _, x := range v {
		w := forged[x.Revision]
		if x.Admissible || x.Kind != audit.KindDelivery || x.Query == "" || x.Fragment != "" || x.Label == nil ||
			x.Reason != w.reason || x.Detail != w.detail {
			t.Fatalf("violation %+v, want %+v", x, w)
		}
	}
	ds := r.deliveries(t, "qb")
	var verdicts []bool
	for _, x := range ds {
		verdicts = append(verdicts, x.Admissible)
	}
	if want := []bool{true, true, false, false}; !reflect.DeepEqual(verdicts, want) {
		t.Fatalf("deliveries of qb judged %v, want %v: %+v", verdicts, want, ds)
	}
}
