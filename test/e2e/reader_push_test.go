package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// The reader credential cannot aim a push consumer at anyone else's
// subjects: a consumer delivering to a user's inbox, answers or query
// subject, or into the key store, is refused, none is created, and nothing
// reaches the user; a push consumer under the reader's own inbox prefix,
// and pull consumers (TestReaderGrantIsReadOnly), work as documented.
func TestReaderPushConsumersDeliverOnlyToTheReader(t *testing.T) {
	n, c := nodetest.StartClient(t, func(c *node.Config) { c.ReaderToken = readerToken })
	alice := c.User("alice", "user")
	c.User("bob", "user")
	total := streamMsgs(t, n, "CMEM_EVENTS")

	// alice listens where her client would, cmem where it keeps keys.
	an, err := nats.Connect(n.Log.ClientURL(), nats.Token(alice), nats.CustomInboxPrefix("_INBOX.alice"))
	if err != nil {
		t.Fatal(err)
	}
	defer an.Close()
	leaked := make(chan *nats.Msg, 1024)
	for _, s := range []string{"_INBOX.alice.>", "cmem.answers.alice"} {
		if _, err := an.ChanSubscribe(s, leaked); err != nil {
			t.Fatal(err)
		}
	}
	spy, err := nats.Connect(n.Log.ConnectURL())
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	for _, s := range []string{"$KV.cmem_keys.>", "cmem.query.>"} {
		if _, err := spy.ChanSubscribe(s, leaked); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = an.Flush(), spy.Flush()

	rd, err := nats.Connect(n.Log.ClientURL(), nats.Token(readerToken), nats.CustomInboxPrefix(subjects.ReaderInbox))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	create := func(name, deliver string, legacy bool) (map[string]any, error) {
		cfg := map[string]any{"deliver_subject": deliver, "deliver_policy": "all", "ack_policy": "none", "name": name}
		subject := "$JS.API.CONSUMER.CREATE.CMEM_EVENTS." + name
		if legacy {
			delete(cfg, "name")
			subject = "$JS.API.CONSUMER.CREATE.CMEM_EVENTS"
		}
		body, _ := json.Marshal(map[string]any{"stream_name": "CMEM_EVENTS", "config": cfg})
		msg, err := rd.Request(subject, body, 10*time.Second)
		if err != nil {
			return nil, err
		}
		var resp map[string]any
		return resp, json.Unmarshal(msg.Data, &resp)
	}
	for i, target := range []string{"_INBOX.alice.x", "cmem.answers.alice", "cmem.query.alice", "$KV.cmem_keys.x.bob", "_CMEM_READER.*", "_CMEM_READER"} {
		for _, legacy := range []bool{false, true} {
			resp, err := create(fmt.Sprintf("evil%d", i), target, legacy)
			if err != nil || resp["error"] == nil {
				t.Errorf("a push consumer delivering to %s (legacy %v): %v %v", target, legacy, resp, err)
			}
		}
	}
	// The documented use: a push consumer under the reader's inbox prefix.
	got := make(chan *nats.Msg, int(total)+16)
	if _, err := rd.ChanSubscribe("_CMEM_READER.mine", got); err != nil {
		t.Fatal(err)
	}
	if resp, err := create("mine", "_CMEM_READER.mine", false); err != nil || resp["error"] != nil {
		t.Fatalf("the reader's own push consumer: %v %v", resp, err)
	}
	deadline := time.After(30 * time.Second)
	for i := uint64(0); i < total; i++ {
		select {
		case <-got:
		case <-deadline:
			t.Fatalf("the reader's push consumer delivered %d of %d events", i, total)
		}
	}
	// No consumer of the stream delivers anywhere but the reader's inboxes.
	st, err := n.Log.JetStream().Stream(context.Background(), "CMEM_EVENTS")
	if err != nil {
		t.Fatal(err)
	}
	for info := range st.ListConsumers(context.Background()).Info() {
		if ds := info.Config.DeliverSubject; ds != "" && !strings.HasPrefix(ds, "_CMEM_READER.") {
			t.Errorf("consumer %s delivers to %s", info.Name, ds)
		}
	}
	_, _ = an.Flush(), spy.Flush()
	if len(leaked) > 0 {
		m := <-leaked
		t.Fatalf("%d messages reached alice or cmem's subjects, e.g. on %s", len(leaked)+1, m.Subject)
	}
}
