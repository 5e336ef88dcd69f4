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
//     were recorded later with an earlier time);
//   - Now(r, clock): AtRevision(r), minus every edge whose grant's expiry is
//     at or before clock.
//
// A grant may carry an expiry. By time it is in force on [its time,
// expiry); by revision it ends only at its expired event (appended by an
// expirer, see package expirer); at a Now point also at the clock.
//
// "Now" for enforcement is Now(head, wall clock) after the read fence: the
// revision part cannot be fooled by clock skew between gateways, because an
// acknowledged revoke or expired event is in the log prefix; the clock part
// ends an expired grant on a gateway before any event says so.
//
// The package depends only on package events; it knows nothing of NATS.
package access
