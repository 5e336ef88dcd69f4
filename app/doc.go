// Package app holds cmem's use cases, one per file: registering users,
// agents and resources, granting and revoking edges, answering "what could u
// use at t", and authenticating callers. It turns commands into events on the
// log and answers questions from projections, and it owns the rules that
// make that safe: who may do what, and how fresh a projection must be before
// it may answer.
//
// It declares the interfaces it needs (EventLog, AccessView, Freshness) and
// knows nothing of HTTP or NATS; the gateway and the wiring in cmd/cmem plug
// real parts in.
package app
