// Package subjects is the one place cmem's NATS subject names are built:
// the core subjects it uses with its clients (queries, answers, reply
// inboxes, the reader's inbox), the event and dead-letter subjects of its
// streams, and the one rule for where a reply may go. The ingress, the
// query use case and the replier all ask ReplyAllowed, so a reply subject a
// user chose can never point cmem's own all-powerful connection at the
// event stream or at another user.
//
// JetStream's own API subjects ($JS.API.…, $KV.…) are NATS's names, not
// cmem's; the code that grants or uses them spells them.
package subjects
