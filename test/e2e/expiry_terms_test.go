package e2e_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// Bad grant bodies get a 400 and change nothing; an empty body keeps the
// grant permanent; a later PUT renews, shortens or removes the expiry.
func TestGrantTermsAndRenewal(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "d"})
	const edge = "/v1/grants/user-agent/bob/travel"
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, body := range []any{
		map[string]string{"expires_at": future, "ttl": "8h"},
		map[string]string{"expires_at": past},
		map[string]string{"expires_at": "tomorrow"},
		map[string]string{"ttl": "eight hours"},
		map[string]string{"ttl": "-1h"},
		map[string]string{"ttl": "0s"},
		map[string]string{"until": future},
		`{"ttl": "8h"} {}`,
		`[1]`,
	} {
		r := c.Do("PUT", edge, admin, body)
		if r.Status != http.StatusBadRequest || r.Body["code"] == nil {
			t.Fatalf("PUT %v: %d %s, want 400 with a code", body, r.Status, r.Raw)
		}
	}
	if got := accessOf(t, c, "bob", "").Agents; len(got) != 0 {
		t.Fatalf("a refused grant changed the graph: %+v", got)
	}

	c.Must(http.StatusOK, "PUT", edge, admin, nil)
	if a := accessOf(t, c, "bob", "").Agents; len(a) != 1 || a[0].ExpiresAt != nil {
		t.Fatalf("an empty body must grant until revoked: %+v", a)
	}
	c.Must(http.StatusOK, "PUT", edge, admin, map[string]string{"expires_at": future})
	if a := accessOf(t, c, "bob", "").Agents; len(a) != 1 || a[0].ExpiresAt == nil || a[0].ExpiresAt.Format(time.RFC3339) != future {
		t.Fatalf("expires_at %s: %+v", future, a)
	}
	c.Must(http.StatusOK, "PUT", edge, admin, map[string]string{"ttl": "8h"})
	if a := accessOf(t, c, "bob", ""); a.Agents[0].ExpiresAt == nil || time.Until(*a.Agents[0].ExpiresAt) < 7*time.Hour {
		t.Fatalf("ttl 8h: %+v", a)
	}

	// A short grant made permanent before it ends: the expiry of the short
	// one may never end the permanent one.
	short := c.Must(http.StatusOK, "PUT", edge, admin, map[string]string{"ttl": "300ms"}).Revision()
	permanent := c.Must(http.StatusOK, "PUT", edge, admin, "").Revision()
	time.Sleep(time.Second)
	if a := accessOf(t, c, "bob", ""); len(a.Agents) != 1 || a.Agents[0].ExpiresAt != nil {
		t.Fatalf("after the short grant's expiry the permanent grant is gone: %+v", a)
	}
	for _, rec := range nodetest.Events(t, n, events.TypeUserAgentExpired) {
		p, _ := rec.Decode()
		if g := p.(*events.UserAgentExpired).GrantRevision; g != short || rec.Revision > permanent {
			t.Fatalf("expired event at %d for grant %d (short grant %d, permanent from %d)", rec.Revision, g, short, permanent)
		}
	}
	// DELETE still revokes at once.
	c.Must(http.StatusOK, "PUT", edge, admin, map[string]string{"ttl": "1h"})
	c.Must(http.StatusOK, "DELETE", edge, admin, nil)
	if a := accessOf(t, c, "bob", ""); len(a.Agents) != 0 {
		t.Fatalf("revoked grant with an expiry still shown: %+v", a)
	}
}

// Two processes on one log both run an expirer; the grant's expiry is
// stored once, and both gateways drop the edge.
func TestExpiryWrittenOnceAcrossProcesses(t *testing.T) {
	a := nodetest.Start(t, nil)
	b := nodetest.Start(t, func(c *node.Config) { c.NATSURL = a.Log.ConnectURL() })
	ca, cb := nodetest.NewClient(t, a), nodetest.NewClient(t, b)
	ca.User("bob", "user")
	ca.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "d"})
	grant := ca.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/travel", admin, map[string]string{"ttl": "200ms"}).Revision()
	expired := waitExpired(t, a, grant)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, n := range []*node.Node{a, b} {
		if err := n.Runner.WaitFor(ctx, expired); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond) // room for a second expirer to (wrongly) write again
	waitExpired(t, b, grant)           // fails on a second copy
	for _, c := range []*nodetest.Client{ca, cb} {
		if got := accessOf(t, c, "bob", "").Agents; len(got) != 0 {
			t.Fatalf("after the expiry: %+v", got)
		}
		if got := accessOf(t, c, "bob", "revision="+strconv.FormatUint(grant, 10)).Agents; len(got) != 1 {
			t.Fatalf("as of the grant: %+v", got)
		}
	}
}

// A gateway with no expirer anywhere on its log still ends a grant when
// its own clock passes the expiry: the point "now" carries the clock. As
// of revision, which only events decide, the grant is still there.
func TestGatewayClockEndsGrantWithoutAnyExpirer(t *testing.T) {
	n, c := nodetest.StartClient(t, func(c *node.Config) { c.Role = node.RoleGateway })
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "d"})
	grantAgent(c, "alice", "travel")
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "travel", "resources": []string{},
		"key": "lyon food", "value": "bouchons", "tier": "shared"})
	grant := c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/bob/travel", admin, map[string]string{"ttl": "500ms"}).Revision()
	expires := *accessOf(t, c, "bob", "revision="+strconv.FormatUint(grant, 10)).Agents[0].ExpiresAt
	time.Sleep(time.Until(expires) + 10*time.Millisecond)

	if r := c.Do("POST", "/v1/memory/view", bob, map[string]any{"agent": "travel", "query": "lyon food", "k_cross": 10, "min_revision": w.Revision()}); r.Status != http.StatusForbidden {
		t.Fatalf("view through the expired grant: %d %s, want 403", r.Status, r.Raw)
	}
	if got := accessOf(t, c, "bob", "").Agents; len(got) != 0 {
		t.Fatalf("access now after the expiry: %+v", got)
	}
	if got := accessOf(t, c, "bob", "revision="+strconv.FormatUint(grant, 10)).Agents; len(got) != 1 {
		t.Fatalf("access as of the grant's revision: %+v", got)
	}
	if ex := nodetest.Events(t, n, events.TypeUserAgentExpired); len(ex) != 0 {
		t.Fatalf("a gateway-only process wrote %d expired events; only workers and serve run an expirer", len(ex))
	}
}
