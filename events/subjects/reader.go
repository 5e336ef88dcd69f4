package subjects

import "strings"

// ReaderAccount is the account of the read-only event-stream credential on
// cmem's embedded server (deploy/nats.conf gives a cluster the same). In
// its own account a reader's JetStream requests reach the stream only
// through what cmem's account exports to it, so a push consumer it
// creates cannot deliver into a user's subjects: consumer creation goes
// through cmem (ReaderConsumerCreate), which allows deliveries only under
// ReaderInbox.
const ReaderAccount = "CMEM_READER"

// ReaderAPIRoot is where cmem's account receives the reader's consumer
// creations, mapped from $JS.API.CONSUMER.CREATE.<stream>[.…].
const ReaderAPIRoot = "cmem.readerapi"

// ReaderConsumerCreate is the subject in cmem's account that a reader's
// $JS.API.CONSUMER.CREATE.<stream> request arrives on (ReaderConsumerCreates
// matches the forms with a consumer name and a filter).
func ReaderConsumerCreate(stream string) string {
	return ReaderAPIRoot + ".consumer.create." + stream
}

// ReaderConsumerCreates matches ReaderConsumerCreate(stream) followed by a
// consumer name and, optionally, a filter subject.
func ReaderConsumerCreates(stream string) string { return ReaderConsumerCreate(stream) + ".>" }

// JSConsumerCreate is the JetStream API subject a reader's request mapped
// to subject (under ReaderConsumerCreate) stands for.
func JSConsumerCreate(subject string) string {
	return "$JS.API.CONSUMER.CREATE" + strings.TrimPrefix(subject, ReaderAPIRoot+".consumer.create")
}

// ReaderDeliveryAllowed reports whether a push consumer a reader creates
// may deliver to subject: none (a pull consumer) or a literal subject
// under ReaderInbox.
func ReaderDeliveryAllowed(subject string) bool {
	if subject == "" {
		return true
	}
	rest, ok := strings.CutPrefix(subject, ReaderInbox+".")
	return ok && rest != "" && !strings.ContainsAny(subject, "*> \t\r\n") && !strings.Contains(subject, "..") && !strings.HasSuffix(subject, ".")
}
