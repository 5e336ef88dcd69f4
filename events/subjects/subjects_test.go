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
