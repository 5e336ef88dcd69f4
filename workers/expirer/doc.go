// Package expirer ends grants at their expiry with no command: it watches
// the access projection for grants whose expires_at has passed and appends
// the matching cmem.user_agent.expired / cmem.agent_resource.expired event.
//
// Every worker and serve process runs one. They do not coordinate: the
// event id is derived from the grant (events.ExpiredEventID), so the log's
// deduplication keeps one copy, and the append is conditional on the grant
// still being the newest event of its edge (eventlog.ExpectLast), so an
// expiry can never end a renewal or a later grant, however late it runs.
//
// Enforcement does not wait for this event: every decision is judged at
// access.Now(fenced revision, wall clock), which drops a grant past its
// expiry at once. The event puts the end on the log, so answers by
// revision, the audit trail and processes whose clock is behind all agree
// once it is appended.
package expirer
