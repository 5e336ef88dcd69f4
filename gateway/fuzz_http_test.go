package gateway_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// fuzzNode is a node for fuzzing: short query waits, no rate limits in
// the way.
func fuzzNode(f *testing.F) (*node.Node, *nodetest.Client, string) {
	n := nodetest.Start(f, func(c *node.Config) {
		c.Gateway.QueryWait = time.Second
		big := gateway.Rate{PerMinute: 1e9, Burst: 1 << 30}
		c.Gateway.Limits = gateway.RateLimits{Queries: big, Fragments: big, Registrations: big}
	})
	c := nodetest.NewClient(f, n)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "d"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	return n, c, alice
}

var fuzzRoutes = []string{"/v1/users", "/v1/agents", "/v1/resources", "/v1/fragments", "/v1/memory/view", "/v1/policies", "/v1/queries"}

// FuzzHTTPBodies: no body sent to any endpoint that takes one answers 500,
// as the admin or as a user.
func FuzzHTTPBodies(f *testing.F) {
	_, c, alice := fuzzNode(f)
	seeds := []string{`{"id":"u1","role":"user"}`, `{"id":"a1","description":"d"}`,
		`{"id":"kb","kind":"knowledge_base","description":"d","documents":[{"id":"d","text":"t"}]}`,
		`{"agent":"planner","key":"k","value":"v","tier":"private","derived_from":["x","x"]}`,
		`{"agent":"planner","query":"k"}`, `{"target":"read","kind":"redact","config":{"match":"a"}}`,
		`{"text":"hello","wait":false}`, `{"a":1,"A":2}`, `{"effective_at":"1500-01-01T00:00:00Z"}`}
	for i, s := range seeds {
		f.Add(uint8(i), false, []byte(s))
		f.Add(uint8(i), true, []byte(s))
	}
	f.Fuzz(func(t *testing.T, route uint8, asUser bool, body []byte) {
		token := admin
		if asUser {
			token = alice
		}
		path := fuzzRoutes[int(route)%len(fuzzRoutes)]
		r := (&nodetest.Client{T: t, Base: c.Base}).Do("POST", path, token, string(body))
		if r.Status >= 500 && r.Status != http.StatusServiceUnavailable {
			t.Fatalf("POST %s %q: %d %s", path, body, r.Status, r.Raw)
		}
	})
}

// FuzzNATSIngress: no message a user publishes on its query subject gets
// an internal error back.
func FuzzNATSIngress(f *testing.F) {
	n, _, alice := fuzzNode(f)
	nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(alice), nats.CustomInboxPrefix("_INBOX.alice"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(nc.Close)
	for _, s := range []string{`{"text":"What food is Lyon famous for?"}`, `not json`, `{"text":""}`, `{"text":1}`, `{"Text":"a","text":"b"}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		// An error comes back at once; an accepted query's answer comes
		// when the pipeline is done, so wait only a little for either and
		// judge whatever arrived.
		inbox := nc.NewRespInbox()
		sub, err := nc.SubscribeSync(inbox)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = sub.Unsubscribe() }()
		if err := nc.PublishRequest("cmem.query.alice", inbox, body); err != nil {
			t.Fatal(err)
		}
		msg, err := sub.NextMsg(2 * time.Second)
		if err != nil {
			return
		}
		var ans struct{ Code string }
		_ = json.Unmarshal(msg.Data, &ans)
		if ans.Code == "internal" || strings.Contains(string(msg.Data), "internal error") {
			t.Fatalf("%q: %s", body, msg.Data)
		}
	})
}
