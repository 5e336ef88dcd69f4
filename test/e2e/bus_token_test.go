package e2e_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/node/nodetest"
)

// A token rotated or revoked stops working on a bus connection opened with
// it, as it does over HTTP: the connection is closed, no query sent on it
// after the change is accepted (none reaches the log), and the old token
// cannot connect again. Deactivation (TestLifecycleOnTheBus) keeps its
// behaviour: the open connection's queries are refused.
func TestRotatedOrRevokedTokenStopsWorkingOnAnOpenBusConnection(t *testing.T) {
	for _, change := range []string{"rotate", "revoke"} {
		t.Run(change, func(t *testing.T) {
			n, c := nodetest.StartClient(t, nil)
			bob, carol := c.User("bob", "user"), c.User("carol", "user")

			// cmem's own connection sees every query bob gets onto the log.
			spy, err := nats.Connect(n.Log.ConnectURL())
			if err != nil {
				t.Fatal(err)
			}
			defer spy.Close()
			logged := make(chan *nats.Msg, 1024)
			if _, err := spy.ChanSubscribe(subjects.EventsUnder("queries/bob"), logged); err != nil {
				t.Fatal(err)
			}
			if err := spy.Flush(); err != nil {
				t.Fatal(err)
			}

			old, err := nats.Connect(n.Log.ClientURL(), nats.Token(bob), nats.CustomInboxPrefix("_INBOX.bob"),
				nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
			if err != nil {
				t.Fatal(err)
			}
			defer old.Close()
			if msg, err := old.Request(subjects.Query("bob"), []byte(`{"text":"before the change"}`), 60*time.Second); err != nil || strings.Contains(string(msg.Data), `"code"`) {
				t.Fatalf("before the change: %s (%v)", msgData(msg), err)
			}

			var fresh string
			switch change {
			case "rotate":
				fresh = c.Must(http.StatusCreated, "POST", "/v1/users/bob/token", nodetest.AdminToken, nil).Body["token"].(string)
			case "revoke":
				c.Must(http.StatusOK, "DELETE", "/v1/users/bob/token", nodetest.AdminToken, nil)
			}
			// At once, on the old connection: every one of these must be refused.
			replies := make(chan *nats.Msg, 64)
			_, _ = old.ChanSubscribe("_INBOX.bob.after", replies)
			for range 20 {
				_ = old.PublishRequest(subjects.Query("bob"), "_INBOX.bob.after", []byte(`{"text":"after the change"}`))
			}
			_ = old.Flush()

			deadline := time.Now().Add(30 * time.Second)
			for old.IsConnected() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if old.IsConnected() {
				t.Fatalf("the connection opened with the %sd token is still open", change)
			}
			if _, err := nats.Connect(n.Log.ClientURL(), nats.Token(bob)); err == nil {
				t.Fatalf("the %sd token opened a new connection", change)
			}
			// carol's query is taken after all of bob's (one ingress, in
			// order): once she has her answer, bob's have been decided.
			cc, err := nats.Connect(n.Log.ClientURL(), nats.Token(carol), nats.CustomInboxPrefix("_INBOX.carol"))
			if err != nil {
				t.Fatal(err)
			}
			defer cc.Close()
			if msg, err := cc.Request(subjects.Query("carol"), []byte(`{"text":"a barrier"}`), 60*time.Second); err != nil || strings.Contains(string(msg.Data), `"code"`) {
				t.Fatalf("carol: %s (%v)", msgData(msg), err)
			}
			ids := queryIDs(logged)
			if len(ids) != 1 {
				t.Fatalf("bob's queries on the log: %v; want only the one asked before the change", ids)
			}
			for len(replies) > 0 {
				if m := <-replies; !strings.Contains(string(m.Data), `"code":"unauthenticated"`) {
					t.Fatalf("a query on the old connection was answered: %s", m.Data)
				}
			}
			if fresh != "" { // the new token works on a new connection
				nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(fresh), nats.CustomInboxPrefix("_INBOX.bob"))
				if err != nil {
					t.Fatal(err)
				}
				defer nc.Close()
				// (within a second of the change a query is refused whichever
				// connection sent it: asked again, it is answered.)
				for until := time.Now().Add(20 * time.Second); ; {
					msg, err := nc.Request(subjects.Query("bob"), []byte(`{"text":"with the new token"}`), 60*time.Second)
					if err == nil && !strings.Contains(string(msg.Data), `"code"`) {
						break
					}
					if err != nil || !strings.Contains(string(msg.Data), `"code":"unauthenticated"`) || time.Now().After(until) {
						t.Fatalf("the new token: %s (%v)", msgData(msg), err)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}
}

// queryIDs are the distinct query ids of the query events received so far
// (cmem.events.queries.<user>.<id>[.…]).
func queryIDs(ch chan *nats.Msg) map[string]bool {
	ids := map[string]bool{}
	for len(ch) > 0 {
		m := <-ch
		parts := strings.Split(m.Subject, ".")
		if len(parts) >= 5 {
			ids[parts[4]] = true
		}
	}
	return ids
}
