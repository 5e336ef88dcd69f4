// Package subjects owns the names of the core NATS subjects cmem uses with
// its clients (queries, answers, reply inboxes) and the one rule for where a
// reply may go. The ingress, the query use case and the replier all ask
// ReplyAllowed, so a reply subject a user chose can never point cmem's own
// all-powerful connection at the event stream or at another user.
package subjects
