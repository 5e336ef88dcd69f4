// Package scenario runs the paper's three experiments (000 §5, App. C–E)
// against a cmem node, as any client would: it registers users, agents and
// resources over the public HTTP API, grants and revokes edges, submits
// queries, and reads what happened back from the audit trail
// (/v1/audit/metrics, /v1/audit/violations) and the event stream on the bus.
//
// Corpora are generated with ground truth (facts per domain, business
// objectives split into role subtasks, per-category science facts), so
// accuracy is measured offline by an exact-match judge; with an
// OpenAI-compatible model configured an LLM judge is asked too.
//
// Isolation for the baselines comes from the access graph alone: every user
// gets its own copies of the agents (agent "travel_u1" granted only to
// user u1), so no fragment one user's copy wrote is admissible to another
// user; cmem has no switch for it.
//
// Scenario 2 also compares the coordination schemes of seed 004 §3.2
// (Config.Coordination, Config.Participants): its shared configuration
// runs once per scheme with the users' coordination policy set, and the
// report gives accuracy, rounds (the steps of each answer) and resource
// calls per scheme and role.
//
// Run writes DIR/report.md, DIR/results.json and DIR/*.svg.
package scenario
