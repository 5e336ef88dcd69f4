package e2e_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/node/nodetest"
)

// A user asks over NATS with its cmem token and gets the answer on its
// reply subject; it can neither ask as another user nor read another
// user's answers or inboxes.
func TestQueriesOverTheBus(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	world(c)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "bob", "travel")

	nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(alice), nats.CustomInboxPrefix("_INBOX.alice"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	msg, err := nc.Request("cmem.query.alice", []byte(`{"text":"What food is Lyon famous for?"}`), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var ans struct{ ID, Status, Answer string }
	if err := json.Unmarshal(msg.Data, &ans); err != nil || ans.Status != "answered" || !strings.Contains(ans.Answer, "bouchons") {
		t.Fatalf("answer over the bus: %s (%v)", msg.Data, err)
	}
	r := c.Must(200, "GET", "/v1/queries/"+ans.ID, alice, nil)
	if r.Body["status"] != "answered" {
		t.Fatalf("the bus query is not visible over HTTP: %s", r.Raw)
	}
	c.Must(403, "GET", "/v1/queries/"+ans.ID, bob, nil)

	// Bad input gets a clear error on the reply subject.
	msg, err = nc.Request("cmem.query.alice", []byte(`not json`), 10*time.Second)
	if err != nil || !strings.Contains(string(msg.Data), `"code":"invalid"`) {
		t.Fatalf("bad input: %s %v", msg.Data, err)
	}
	// as_of as over HTTP: carried to the query, and a time that is not
	// one is refused.
	msg, err = nc.Request("cmem.query.alice", []byte(`{"text":"What food is Lyon famous for?","as_of":"2023-06-01"}`), 30*time.Second)
	var past struct {
		AsOf string `json:"as_of"`
	}
	if err != nil || json.Unmarshal(msg.Data, &past) != nil || past.AsOf != "2023-06-01T23:59:59.999999999Z" {
		t.Fatalf("as_of over the bus: %s %v", msg.Data, err)
	}
	msg, err = nc.Request("cmem.query.alice", []byte(`{"text":"What food is Lyon famous for?","as_of":"last June"}`), 10*time.Second)
	if err != nil || !strings.Contains(string(msg.Data), `"code":"invalid"`) || !strings.Contains(string(msg.Data), "as_of") {
		t.Fatalf("bad as_of over the bus: %s %v", msg.Data, err)
	}

	// Asking as bob, or listening to bob's answers, is refused by the server.
	errs := make(chan error, 4)
	nc2, err := nats.Connect(n.Log.ClientURL(), nats.Token(alice), nats.CustomInboxPrefix("_INBOX.alice"),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
	if err != nil {
		t.Fatal(err)
	}
	defer nc2.Close()
	_, _ = nc2.Subscribe("cmem.answers.bob", func(*nats.Msg) {})
	_ = nc2.Publish("cmem.query.bob", []byte(`{"text":"x"}`))
	_, _ = nc2.Subscribe("_INBOX.bob.>", func(*nats.Msg) {})
	_ = nc2.Flush()
	violations := 0
	timeout := time.After(5 * time.Second)
	for violations < 3 {
		select {
		case err := <-errs:
			if !errors.Is(err, nats.ErrPermissionViolation) && !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
				t.Fatalf("unexpected error: %v", err)
			}
			violations++
		case <-timeout:
			t.Fatalf("only %d of 3 permission violations reported", violations)
		}
	}
	if _, err := nats.Connect(n.Log.ClientURL(), nats.Token("cmem_not-a-token")); err == nil {
		t.Fatal("an unknown token connected to the bus")
	}
}
