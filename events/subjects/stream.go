package subjects

import (
	"strconv"
	"strings"
)

// EventsRoot is the root of the event subjects: everything under it is in
// the event stream, in log order.
const EventsRoot = "cmem.events"

// AllEvents matches every event subject (the event stream's subjects).
const AllEvents = EventsRoot + ".>"

// Event is the subject an event with envelope subject envelopeSubject is
// stored on: "grants/user-agent/u/a" becomes
// "cmem.events.grants.user-agent.u.a".
func Event(envelopeSubject string) string {
	return EventsRoot + "." + strings.ReplaceAll(envelopeSubject, "/", ".")
}

// EventsUnder matches every event whose envelope subject lies under
// prefix: EventsUnder("queries") matches "queries/q1" and
// "queries/q1/agents/a".
func EventsUnder(prefix string) string { return Event(prefix) + ".>" }

// DeadLetterRoot is the root of the dead-letter subjects, the subjects of
// the dead-letter stream.
const DeadLetterRoot = "cmem.deadletter"

// AllDeadLetters matches every dead letter (the dead-letter stream's
// subjects).
const AllDeadLetters = DeadLetterRoot + ".>"

// DeadLetter is where consumer's dead letter for revision rev lives; one
// subject per (consumer, revision) lets the log write it once.
func DeadLetter(consumer string, rev uint64) string {
	return DeadLetterRoot + "." + consumer + "." + strconv.FormatUint(rev, 10)
}

// DeadLettersOf matches every dead letter of consumer.
func DeadLettersOf(consumer string) string { return DeadLetterRoot + "." + consumer + ".>" }

// ReaderInbox is the inbox prefix a read-only event-stream reader must set
// (nats.CustomInboxPrefix): replies to its JetStream requests and its push
// deliveries go there. It lies outside InboxRoot, so it never meets a
// user's inboxes.
const ReaderInbox = "_CMEM_READER"

// ReaderInboxes matches every inbox of a reader.
const ReaderInboxes = ReaderInbox + ".>"

// Nothing is a subject no client publishes or subscribes on: an allow list
// that would otherwise be empty (which NATS reads as "no restriction")
// holds it instead.
const Nothing = "_cmem.nothing"
