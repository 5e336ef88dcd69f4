package subjects_test

import (
	"testing"

	"github.com/cmem/cmem/events/subjects"
)

func TestReplyAllowed(t *testing.T) {
	ok := []string{"_INBOX.alice.x", "_INBOX.alice.abc.1", "_INBOX.alice.Zk3"}
	bad := []string{"", "_INBOX.alice", "_INBOX.alice.", "_INBOX.alicex.1", "_INBOX.bob.1", "cmem.events.users.charlie",
		"cmem.answers.bob", "$JS.API.STREAM.DELETE.CMEM_EVENTS", "_INBOX.alice.>", "_INBOX.alice.*", "_INBOX.alice..x",
		"_INBOX.alice.a b", "_INBOX.>", "_CMEM_READER.x", "_inbox.alice.x"}
	for _, r := range ok {
		if !subjects.ReplyAllowed("alice", r) {
			t.Errorf("%q refused", r)
		}
	}
	for _, r := range bad {
		if subjects.ReplyAllowed("alice", r) {
			t.Errorf("%q allowed", r)
		}
	}
	if subjects.ReplyAllowed("a.b", "_INBOX.a.b.x") || subjects.ReplyAllowed("", "_INBOX..x") {
		t.Error("a user id with a dot or an empty id got a reply")
	}
	if subjects.CheckReply("alice", "") != nil || subjects.CheckReply("alice", "_INBOX.bob.1") == nil {
		t.Error("CheckReply disagrees with ReplyAllowed")
	}
}

func FuzzReplyAllowed(f *testing.F) {
	f.Add("alice", "_INBOX.alice.1")
	f.Add("alice", "cmem.events.x")
	f.Fuzz(func(t *testing.T, user, reply string) {
		if !subjects.ReplyAllowed(user, reply) {
			return
		}
		prefix := subjects.Inbox(user) + "."
		if len(reply) <= len(prefix) || reply[:len(prefix)] != prefix {
			t.Fatalf("%q allowed for %q", reply, user)
		}
	})
}

// The names are the wire contract with clients, the stream configuration
// and deploy/nats.conf: they must never change.
func TestWireNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{subjects.Query("alice"), "cmem.query.alice"},
		{subjects.QueryWildcard, "cmem.query.*"},
		{subjects.QueryUser("cmem.query.alice"), "alice"},
		{subjects.Answers("alice"), "cmem.answers.alice"},
		{subjects.Inbox("alice"), "_INBOX.alice"},
		{subjects.Inboxes("alice"), "_INBOX.alice.>"},
		{subjects.AllEvents, "cmem.events.>"},
		{subjects.Event("grants/user-agent/u/a"), "cmem.events.grants.user-agent.u.a"},
		{subjects.Event("queries/*/q1"), "cmem.events.queries.*.q1"},
		{subjects.EventsUnder("queries"), "cmem.events.queries.>"},
		{subjects.AllDeadLetters, "cmem.deadletter.>"},
		{subjects.DeadLetter("access", 7), "cmem.deadletter.access.7"},
		{subjects.DeadLettersOf("access"), "cmem.deadletter.access.>"},
		{subjects.ReaderInbox, "_CMEM_READER"},
		{subjects.ReaderInboxes, "_CMEM_READER.>"},
		{subjects.Nothing, "_cmem.nothing"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
