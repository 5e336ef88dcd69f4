// Package access owns the two time-varying permission graphs of the paper,
// G_UA(t) (user may invoke agent) and G_AR(t) (agent may use resource), with
// their complete history, plus the registry of users, agents and resources.
//
// A Graph is a projection of the event log: it is fed events in log order by
// a projector and answers, without replaying anything, A(u,p), R(a,p) and
// whether a fragment's provenance is admissible, at any Point p:
//
//   - AtRevision(r): the graphs as the first r events of the log define them,
//     applied in log order (what was known at revision r);
//   - AtTime(t): every event known whose time is <= t, applied in (time,
//     revision) order (what was in force at t, including corrections that
//     were recorded later with an earlier time).
//
// "Now" for enforcement is AtRevision(head): it cannot be fooled by clock skew
// between gateways, because an acknowledged revoke is in the log prefix.
//
// The package depends only on package events; it knows nothing of NATS.
package access
