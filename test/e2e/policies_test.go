package e2e_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm/llmtest"
	"github.com/cmem/cmem/node/nodetest"
)

func TestWritePoliciesThroughTheAPIWithTheirEvents(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	alice, bob := c.User("alice", "user"), c.User("bob", "user")
	for _, a := range []string{"planner", "critic"} {
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": a, "description": a})
		for _, u := range []string{"alice", "bob"} {
			c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/"+u+"/"+a, admin, nil)
		}
	}
	write := func(token, agent, tier, value string, want int) nodetest.Response {
		return c.Must(want, "POST", "/v1/fragments", token, map[string]any{"agent": agent, "key": "contact", "value": value, "tier": tier})
	}
	secret := "reach alice at alice@example.com, card 4111 1111 1111 1111"

	// Default: simple, verbatim, exactly one fragment in the requested tier.
	r := write(alice, "planner", "shared", secret, http.StatusCreated)
	if fs := r.Body["fragments"].([]any); len(fs) != 1 || fs[0].(map[string]any)["value"] != secret || fs[0].(map[string]any)["tier"] != "shared" {
		t.Fatalf("default policy: %s", r.Raw)
	}

	// Global redact on the shared tier; a user-scoped block for bob; an
	// agent-scoped simple for critic; admin-only and validated.
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "redact"})
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "scope": map[string]string{"user": "bob"},
		"kind": "block", "config": map[string]any{"patterns": []string{"(?i)card"}}})
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "scope": map[string]string{"agent": "critic"}, "kind": "simple"})
	c.Must(http.StatusForbidden, "POST", "/v1/policies", alice, map[string]any{"target": "write_shared", "kind": "simple"})
	c.Must(http.StatusBadRequest, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "block", "config": map[string]any{"patterns": []string{"("}}})
	c.Must(http.StatusNotFound, "POST", "/v1/policies", admin, map[string]any{"target": "read", "scope": map[string]string{"user": "nobody"}, "kind": "simple"})
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "simple", "effective_at": future})

	r = write(alice, "planner", "shared", secret, http.StatusCreated) // global redact
	v := r.Body["fragments"].([]any)[0].(map[string]any)["value"].(string)
	if strings.Contains(v, "alice@example.com") || strings.Contains(v, "4111") || !strings.Contains(v, "[EMAIL]") {
		t.Fatalf("redact policy not applied: %q", v)
	}
	if v := write(alice, "planner", "private", secret, http.StatusCreated).Body["fragments"].([]any)[0].(map[string]any)["value"]; v != secret {
		t.Fatalf("a shared-tier policy changed a private write: %q", v)
	}
	if v := write(alice, "critic", "shared", secret, http.StatusCreated).Body["fragments"].([]any)[0].(map[string]any)["value"]; v != secret {
		t.Fatalf("agent scope must beat global: %q", v)
	}
	rej := write(bob, "planner", "shared", secret, http.StatusForbidden) // user scope beats global
	if rej.Body["code"] != "refused_by_policy" || !strings.Contains(rej.Body["error"].(string), "card") {
		t.Fatalf("block: %s", rej.Raw)
	}
	write(bob, "critic", "shared", "harmless", http.StatusCreated) // user beats agent too, but nothing matches

	var redacted, simple int
	for _, rec := range nodetest.Events(t, n, events.TypeFragmentWritten) {
		p, _ := rec.Decode()
		fw := p.(*events.FragmentWritten)
		switch {
		case fw.Policy.Kind == "redact" && fw.Policy.Scope == "global" && fw.Policy.Transformed && fw.Policy.Event != "":
			redacted++
		case fw.Policy.Kind == "simple" && !fw.Policy.Transformed:
			simple++
		}
		if fw.Embedding == nil || fw.Embedding.Model == "" || fw.Provenance != events.ProvenanceTransitive {
			t.Errorf("fragment event lacks embedding or provenance mode: %+v", fw)
		}
	}
	if redacted != 1 || simple != 3 {
		t.Fatalf("FragmentWritten traces: %d redacted, %d simple; want 1 and 3", redacted, simple)
	}
	rejected := nodetest.Events(t, n, events.TypeFragmentRejected)
	if len(rejected) != 1 {
		t.Fatalf("%d FragmentRejected events, want 1", len(rejected))
	}
	p, _ := rejected[0].Decode()
	if fr := p.(*events.FragmentRejected); fr.User != "bob" || fr.Policy.Kind != "block" || fr.Policy.Scope != "user/bob" || len(fr.Policy.Notes) == 0 {
		t.Fatalf("rejection event %+v", fr)
	}
	list := c.Must(http.StatusOK, "GET", "/v1/policies", admin, nil)
	if n := len(list.Body["policies"].([]any)); n != 4 {
		t.Fatalf("%d policies listed, want 4", n)
	}
}

func TestReadPolicyAndDirectProvenance(t *testing.T) {
	n, c := nodetest.StartClient(t, nil)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "a"})
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "b", "description": "b"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/a", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/b", admin, nil)
	first := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": "lyon food", "value": "bouchons; mail bob@example.com", "tier": "shared"})
	src := first.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": "paris", "value": "museums", "tier": "shared"})

	// Direct provenance, chosen explicitly by an admin for agent b.
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "provenance", "scope": map[string]string{"agent": "b"}, "kind": "direct"})
	d := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "b", "key": "lyon wine", "value": "beaujolais", "tier": "shared", "derived_from": []string{src}})
	if ag := strs(d.Body["fragments"].([]any)[0].(map[string]any)["agents"]); len(ag) != 1 || ag[0] != "b" {
		t.Fatalf("direct provenance: agents %v", ag)
	}
	t2 := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": "lyon again", "value": "x", "tier": "private", "derived_from": []string{src}})
	if ag := strs(t2.Body["fragments"].([]any)[0].(map[string]any)["agents"]); len(ag) != 1 || ag[0] != "a" {
		t.Fatalf("transitive provenance from an a-only source: %v", ag)
	}

	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "read", "scope": map[string]string{"user": "alice"}, "kind": "llm",
		"config": map[string]any{"keywords": []string{"lyon"}, "transform": "redact", "limit": 1}})
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "a", "query": "lyon food", "k_user": 5, "k_cross": 5, "min_revision": t2.Revision()})
	shared := v.Body["shared"].([]any)
	if len(shared) != 1 {
		t.Fatalf("keyword filter + limit 1: %s", v.Raw)
	}
	if val := shared[0].(map[string]any)["value"].(string); strings.Contains(val, "bob@example.com") {
		t.Fatalf("read transform did not redact: %q", val)
	}
	reads := nodetest.Events(t, n, events.TypeMemoryRead)
	p, _ := reads[len(reads)-1].Decode()
	if mr := p.(*events.MemoryRead); mr.Policy.Kind != "llm" || !mr.Policy.Transformed || mr.User != "alice" || len(mr.Shared) != 1 {
		t.Fatalf("MemoryRead %+v", mr)
	}
}

// A model that fails inside a write policy is an upstream outage (503),
// and the write is not half done.
func TestLLMWritePolicyProviderFailureIs503(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleChat(func(llmtest.ChatRequest) llmtest.Reply { return llmtest.Status(http.StatusBadRequest, "model refused") })
	c := startWithModel(t, srv)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "a"})
	grantAgent(c, "alice", "a")
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "llm"})
	r := c.Must(http.StatusServiceUnavailable, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": "k", "value": "v", "tier": "shared"})
	if r.Body["code"] != "unavailable" {
		t.Fatalf("%s", r.Raw)
	}
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "a", "query": "k", "min_revision": r.Revision()})
	if n := len(v.Body["shared"].([]any)); n != 0 {
		t.Fatalf("a failed write left %d fragments", n)
	}
}
