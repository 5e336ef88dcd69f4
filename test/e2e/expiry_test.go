package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit"
)

// A fragment readable through an expiring grant leaves the memory view and
// the query answers once the expiry passes, with no command sent; the
// expired event lands on the log once; access answers by time and by
// revision, and the audit (visible at t, violations) agree, on both audit
// backends.
func TestExpiringGrantEndsEverywhere(t *testing.T) {
	nodetest.OnAuditBackends(t, "expiry", expiringGrant)
}

func expiringGrant(t *testing.T, mutate func(*node.Config)) {
	n, c := nodetest.StartClient(t, mutate)
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "travel", "description": "travel destinations, cities, food and restaurants"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide about food and restaurants",
		"documents": []map[string]string{{"id": "lyon", "text": "Lyon is famous for its bouchons, traditional restaurants serving local food."}}})
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	grantAgent(c, "alice", "travel")
	grantAgent(c, "bob", "travel")
	const edge = "/v1/grants/agent-resource/travel/guide"

	// Grant travel -> guide for a while; everything below must happen
	// before the expiry, so on a slow machine try again with a longer one
	// (a later grant renews the expiry).
	var frag, earlier string
	var grantRev uint64
	var expires time.Time
	for ttl := 3 * time.Second; ; ttl *= 2 {
		if ttl > 5*time.Minute {
			t.Fatal("the machine never completed the setup within the grant's lifetime")
		}
		grantRev = c.Must(http.StatusOK, "PUT", edge, admin, map[string]string{"ttl": ttl.String()}).Revision()
		expires = resourceExpiry(t, c, "bob", "travel", "guide", "")
		if frag == "" {
			w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "travel", "resources": []string{"guide"},
				"key": "lyon food", "value": "Lyon is famous for its bouchons.", "tier": "shared"})
			frag = w.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
			c.Must(http.StatusOK, "POST", "/v1/memory/view", bob, map[string]any{"agent": "travel", "query": "lyon food", "k_cross": 10, "min_revision": w.Revision()})
		}
		view := c.Must(http.StatusOK, "POST", "/v1/memory/view", bob, map[string]any{"agent": "travel", "query": "lyon food", "k_cross": 10})
		answer := ask(c, bob, "What food is Lyon famous for?")
		if time.Now().After(expires) {
			continue
		}
		if !slices.Contains(idsOf(view, "shared"), frag) {
			t.Fatalf("before the expiry bob's view lacks %s: %s", frag, view.Raw)
		}
		if !strings.Contains(answer.Body["answer"].(string), "bouchons") {
			t.Fatalf("before the expiry bob's answer: %s", answer.Raw)
		}
		earlier = answer.Body["id"].(string)
		break
	}

	time.Sleep(time.Until(expires) + 10*time.Millisecond) // no command: only time passes
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", bob, map[string]any{"agent": "travel", "query": "lyon food", "k_cross": 10})
	if slices.Contains(idsOf(view, "shared"), frag) || strings.Contains(string(view.Raw), "bouchons") {
		t.Fatalf("after the expiry bob's view still shows the fragment: %s", view.Raw)
	}
	answer := ask(c, bob, "What food is Lyon famous for?")
	if strings.Contains(string(answer.Raw), "bouchons") || strings.Contains(string(answer.Raw), `"guide"`) {
		t.Fatalf("after the expiry bob's answer still uses the guide: %s", answer.Raw)
	}
	// Delivery is a read: the answer given before the expiry, asked for
	// again, withholds what came through the guide.
	if again := c.Must(http.StatusOK, "GET", "/v1/queries/"+earlier, bob, nil); strings.Contains(string(again.Raw), "bouchons") {
		t.Fatalf("after the expiry the earlier answer is still delivered: %s", again.Raw)
	}
	if got := travelResources(t, c, ""); len(got) != 0 {
		t.Fatalf("after the expiry travel may still use %v", got)
	}

	// The expirer puts the end on the log, once.
	expired := waitExpired(t, n, grantRev)
	if got := travelResources(t, c, "revision="+strconv.FormatUint(grantRev, 10)); !slices.Equal(got, []string{"guide"}) {
		t.Fatalf("as of the grant's revision travel may use %v, want [guide]", got)
	}
	if e := resourceExpiry(t, c, "bob", "travel", "guide", "revision="+strconv.FormatUint(grantRev, 10)); !e.Equal(expires) {
		t.Fatalf("expiry as of the grant's revision: %v, want %v", e, expires)
	}
	if got := travelResources(t, c, "revision="+strconv.FormatUint(expired, 10)); len(got) != 0 {
		t.Fatalf("as of the expired event travel may use %v", got)
	}
	for at, want := range map[time.Time][]string{expires.Add(-time.Nanosecond): {"guide"}, expires: nil, expires.Add(time.Hour): nil} {
		if got := travelResources(t, c, "at="+url.QueryEscape(at.Format(time.RFC3339Nano))); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("as of %s travel may use %v, want %v", at.Format(time.RFC3339Nano), got, want)
		}
	}

	// Two reads forged onto the log, both from the graph at the grant:
	// one judged before the expiry (admissible), one after (a violation),
	// which only the read's time tells apart.
	okRev := forgeRead(t, n, frag, grantRev, expires.Add(-time.Millisecond))
	badRev := forgeRead(t, n, frag, grantRev, expires.Add(time.Millisecond))
	fresh := "min_revision=" + strconv.FormatUint(badRev, 10)
	for at, want := range map[time.Time]bool{expires.Add(-time.Nanosecond): true, expires: false} {
		var vis struct{ Fragments []string }
		r := c.Must(http.StatusOK, "GET", "/v1/audit/visible?user=bob&agent=travel&at="+url.QueryEscape(at.Format(time.RFC3339Nano))+"&"+fresh, admin, nil)
		decode(t, r.Raw, &vis)
		if slices.Contains(vis.Fragments, frag) != want {
			t.Fatalf("audit visible at %s: %v, want %s there: %v", at.Format(time.RFC3339Nano), vis.Fragments, frag, want)
		}
	}
	var violations []audit.Read
	decode(t, c.Must(http.StatusOK, "GET", "/v1/audit/violations?"+fresh, admin, nil).Raw, &violations)
	if len(violations) != 1 || violations[0].Revision != badRev || violations[0].Reason != audit.ReasonProvenance {
		t.Fatalf("violations: %+v, want only the forged read at revision %d (ok one at %d)", violations, badRev, okRev)
	}
}

func resourceExpiry(t *testing.T, c *nodetest.Client, user, agent, resource, query string) time.Time {
	t.Helper()
	for _, a := range accessOf(t, c, user, query).Agents {
		if a.ID == agent {
			if e, ok := a.ResourceExpiry[resource]; ok {
				return e
			}
		}
	}
	t.Fatalf("no expiry of %s -> %s in the access of %s (%s)", agent, resource, user, query)
	return time.Time{}
}

// travelResources is R(travel) as bob's access answer shows it.
func travelResources(t *testing.T, c *nodetest.Client, query string) []string {
	t.Helper()
	for _, a := range accessOf(t, c, "bob", query).Agents {
		if a.ID == "travel" {
			return a.Resources
		}
	}
	t.Fatalf("bob has no agent travel (%s)", query)
	return nil
}

type accessAnswer struct {
	Agents []struct {
		ID             string               `json:"id"`
		Resources      []string             `json:"resources"`
		ExpiresAt      *time.Time           `json:"expires_at"`
		ResourceExpiry map[string]time.Time `json:"resource_expiry"`
	} `json:"agents"`
}

func accessOf(t *testing.T, c *nodetest.Client, user, query string) accessAnswer {
	t.Helper()
	var a accessAnswer
	decode(t, c.Must(http.StatusOK, "GET", "/v1/access/"+user+"?"+query, admin, nil).Raw, &a)
	return a
}

func decode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}

// waitExpired waits (no time limit but the test's) until the expired
// event of the grant at grantRev is on n's log, checks there is exactly
// one expired event for it, and returns its revision.
func waitExpired(t *testing.T, n *node.Node, grantRev uint64) uint64 {
	t.Helper()
	for {
		var revs []uint64
		for _, rec := range nodetest.Events(t, n, events.TypeAgentResourceExpired, events.TypeUserAgentExpired) {
			p, err := rec.Decode()
			if err != nil {
				t.Fatal(err)
			}
			if g := grantOf(p); g == grantRev {
				revs = append(revs, rec.Revision)
			} else if g > grantRev {
				t.Fatalf("an expired event names grant %d, newer than %d", g, grantRev)
			}
		}
		switch len(revs) {
		case 0:
			time.Sleep(50 * time.Millisecond)
			continue
		case 1:
			return revs[0]
		}
		t.Fatalf("grant %d expired %d times: revisions %v", grantRev, len(revs), revs)
	}
}

func grantOf(p events.Payload) uint64 {
	switch p := p.(type) {
	case *events.AgentResourceExpired:
		return p.GrantRevision
	case *events.UserAgentExpired:
		return p.GrantRevision
	}
	return 0
}

func forgeRead(t *testing.T, n *node.Node, frag string, graphRev uint64, at time.Time) uint64 {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "bob", Time: at}, &events.MemoryRead{User: "bob", Agent: "travel",
		Query: "q", Private: []string{}, Shared: []string{frag}, GraphRevision: graphRev, Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := n.Log.Append(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return rev
}
