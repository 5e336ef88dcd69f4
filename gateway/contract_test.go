package gateway_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

const admin = nodetest.AdminToken

func wantError(t *testing.T, r nodetest.Response, code, mentions string) {
	t.Helper()
	if r.Body["code"] != code {
		t.Fatalf("code %v, want %q: %s", r.Body["code"], code, r.Raw)
	}
	msg, _ := r.Body["error"].(string)
	if !strings.Contains(msg, mentions) {
		t.Fatalf("error %q does not mention %q", msg, mentions)
	}
}

func TestUsersContract(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	r := c.Must(http.StatusCreated, "POST", "/v1/users", admin, map[string]string{"id": "alice", "role": "user"})
	tok, _ := r.Body["token"].(string)
	if r.Body["id"] != "alice" || !strings.HasPrefix(tok, "cmem_") || r.Revision() != 1 {
		t.Fatalf("answer %s", r.Raw)
	}
	wantError(t, c.Must(http.StatusConflict, "POST", "/v1/users", admin, map[string]string{"id": "alice", "role": "user"}), "conflict", "already registered")
	wantError(t, c.Must(http.StatusConflict, "POST", "/v1/users", admin, map[string]string{"id": "admin"}), "conflict", "reserved")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/users", admin, map[string]string{"id": "a.b"}), "invalid", "invalid id")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/users", admin, map[string]string{"id": "bob", "role": "root"}), "invalid", "role")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/users", admin, map[string]string{"id": "bob", "rol": "user"}), "invalid", "unknown field")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/users", admin, "{"), "invalid", "body")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/users", admin, ""), "invalid", "empty body")
	wantError(t, c.Must(http.StatusForbidden, "POST", "/v1/users", tok, map[string]string{"id": "bob"}), "forbidden", "not an admin")
	wantError(t, c.Must(http.StatusUnauthorized, "POST", "/v1/users", "", map[string]string{"id": "bob"}), "unauthenticated", "missing")
	wantError(t, c.Must(http.StatusUnauthorized, "POST", "/v1/users", "cmem_forged", map[string]string{"id": "bob"}), "unauthenticated", "unknown token")

	// A registered admin user acts as an admin with its own token.
	boss := c.User("boss", "admin")
	c.Must(http.StatusCreated, "POST", "/v1/users", boss, map[string]string{"id": "carol"})
}

func TestAgentsAndResourcesContract(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	user := c.User("u", "user")
	r := c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips", "system_prompt": "You plan."})
	if r.Body["id"] != "planner" || r.Revision() == 0 {
		t.Fatalf("answer %s", r.Raw)
	}
	c.Must(http.StatusConflict, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "again"})
	c.Must(http.StatusBadRequest, "POST", "/v1/agents", admin, map[string]string{"id": "", "description": "x"})
	c.Must(http.StatusBadRequest, "POST", "/v1/agents", admin, map[string]string{"id": "x", "description": strings.Repeat("d", 9000)})
	c.Must(http.StatusForbidden, "POST", "/v1/agents", user, map[string]string{"id": "x"})
	c.Must(http.StatusUnauthorized, "POST", "/v1/agents", "", map[string]string{"id": "x"})

	kb := map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide",
		"documents": []map[string]string{{"id": "d1", "text": "Lyon has good food."}}}
	r = c.Must(http.StatusCreated, "POST", "/v1/resources", admin, kb)
	if r.Body["id"] != "guide" {
		t.Fatalf("answer %s", r.Raw)
	}
	c.Must(http.StatusConflict, "POST", "/v1/resources", admin, kb)
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "kb2", "kind": "knowledge_base", "description": "x"}), "invalid", "documents")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "kb2", "kind": "knowledge_base", "description": "x",
		"documents": []map[string]string{{"id": "d", "text": "a"}, {"id": "d", "text": "b"}}}), "invalid", "duplicate")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "w", "kind": "Web Search"}), "invalid", "kind")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": 7, "kind": "http"}), "invalid", "id must be a string")
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "weather", "kind": "http", "description": "forecast", "url": "http://127.0.0.1:1/x"})
	c.Must(http.StatusForbidden, "POST", "/v1/resources", user, map[string]any{"id": "z", "kind": "http"})
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "f", "kind": "forecast_model"}), "invalid", "unsupported")
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "h", "kind": "http", "description": "d"}), "invalid", "url is required")
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "calc", "kind": "computation", "description": "arithmetic"})
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": strings.Repeat("r", 65), "kind": "computation"}), "invalid", "function name")
}

func TestGrantsContract(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	user := c.User("u", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "d"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "r", "kind": "computation", "description": "d"})

	for _, path := range []string{"/v1/grants/user-agent/u/a", "/v1/grants/agent-resource/a/r"} {
		g := c.Must(http.StatusOK, "PUT", path, admin, nil)
		d := c.Must(http.StatusOK, "DELETE", path, admin, nil)
		if d.Revision() <= g.Revision() {
			t.Fatalf("%s: revoke revision %d not after grant %d", path, d.Revision(), g.Revision())
		}
		c.Must(http.StatusForbidden, "PUT", path, user, nil)
		c.Must(http.StatusForbidden, "DELETE", path, user, nil)
		c.Must(http.StatusUnauthorized, "PUT", path, "", nil)
	}
	wantError(t, c.Must(http.StatusNotFound, "PUT", "/v1/grants/user-agent/nobody/a", admin, nil), "not_found", "users/nobody")
	wantError(t, c.Must(http.StatusNotFound, "PUT", "/v1/grants/user-agent/u/nothing", admin, nil), "not_found", "agents/nothing")
	wantError(t, c.Must(http.StatusNotFound, "PUT", "/v1/grants/agent-resource/a/nothing", admin, nil), "not_found", "resources/nothing")
	wantError(t, c.Must(http.StatusNotFound, "DELETE", "/v1/grants/agent-resource/ghost/r", admin, nil), "not_found", "agents/ghost")
	wantError(t, c.Must(http.StatusBadRequest, "PUT", "/v1/grants/user-agent/u/a%20b", admin, nil), "invalid", "invalid id")
	c.Must(http.StatusNotFound, "PUT", "/v1/grants/user-resource/u/r", admin, nil)
}

func TestAccessContract(t *testing.T) {
	_, c := nodetest.StartClient(t, func(cfg *node.Config) { cfg.ReadWait = 200 * time.Millisecond })
	alice := c.User("alice", "user")
	bob := c.User("bob", "user")
	for _, a := range []string{"planner", "writer"} {
		c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": a, "description": a})
	}
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "maps", "kind": "http", "description": "d", "url": "http://127.0.0.1:1/maps"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/planner/maps", admin, nil)
	before := c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/writer", admin, nil).Revision()
	time.Sleep(5 * time.Millisecond) // distinct event times for ?at=
	mid := time.Now().UTC()
	time.Sleep(5 * time.Millisecond)
	revoke := c.Must(http.StatusOK, "DELETE", "/v1/grants/user-agent/alice/planner", admin, nil).Revision()

	agents := func(r nodetest.Response) []string {
		var out []string
		list, _ := r.Body["agents"].([]any)
		for _, a := range list {
			m := a.(map[string]any)
			s := m["id"].(string)
			if res, _ := m["resources"].([]any); len(res) > 0 {
				s += "+" + res[0].(string)
			}
			out = append(out, s)
		}
		return out
	}
	now := c.Must(http.StatusOK, "GET", "/v1/access/alice", alice, nil)
	if got := agents(now); !slices.Equal(got, []string{"writer"}) || now.Revision() < revoke || now.Body["user"] != "alice" {
		t.Fatalf("now: %s", now.Raw)
	}
	past := c.Must(http.StatusOK, "GET", "/v1/access/alice?revision="+itoa(before), admin, nil)
	if got := agents(past); !slices.Equal(got, []string{"planner+maps", "writer"}) || past.Revision() != before {
		t.Fatalf("at revision %d: %s", before, past.Raw)
	}
	atMid := c.Must(http.StatusOK, "GET", "/v1/access/alice?at="+mid.Format(time.RFC3339Nano), admin, nil)
	if got := agents(atMid); !slices.Equal(got, []string{"planner+maps", "writer"}) {
		t.Fatalf("at %s: %s", mid, atMid.Raw)
	}
	early := c.Must(http.StatusOK, "GET", "/v1/access/alice?at=2000-01-01T00:00:00Z", admin, nil)
	if got := agents(early); len(got) != 0 {
		t.Fatalf("before any grant: %s", early.Raw)
	}
	c.Must(http.StatusOK, "GET", "/v1/access/alice?min_revision="+itoa(revoke), alice, nil)

	wantError(t, c.Must(http.StatusForbidden, "GET", "/v1/access/alice", bob, nil), "forbidden", "only its own")
	c.Must(http.StatusUnauthorized, "GET", "/v1/access/alice", "", nil)
	wantError(t, c.Must(http.StatusNotFound, "GET", "/v1/access/nobody", admin, nil), "not_found", "users/nobody")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access/alice?at=yesterday", admin, nil), "invalid", "RFC 3339")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access/alice?revision=-1", admin, nil), "invalid", "revision")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access/alice?revision=1&at=2026-01-01T00:00:00Z", admin, nil), "invalid", "at most one")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/access/alice?revision=99999", admin, nil), "invalid", "beyond the log head")
	wantError(t, c.Must(http.StatusServiceUnavailable, "GET", "/v1/access/alice?min_revision=99999", admin, nil), "unavailable", "99999")
}

func TestPublicEndpoints(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	if r := c.Must(http.StatusOK, "GET", "/healthz", "", nil); r.Body["status"] != "ok" {
		t.Fatalf("healthz %s", r.Raw)
	}
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "d"})
	m := c.Must(http.StatusOK, "GET", "/metrics", "", nil)
	for _, want := range []string{"cmem_http_request_seconds", `route="POST /v1/agents"`, "cmem_projection_revision"} {
		if !strings.Contains(string(m.Raw), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	wantError(t, c.Must(http.StatusNotFound, "GET", "/v1/nothing", admin, nil), "not_found", "no such endpoint")
	if r := c.Do("GET", "/v1/users", admin, nil); r.Status != http.StatusMethodNotAllowed {
		t.Fatalf("GET /v1/users: %d, want 405", r.Status)
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
