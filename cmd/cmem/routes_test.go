package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cmem/cmem/gateway"
)

// cliOfRoute is the CLI command that makes each API call, with sample
// arguments. A route the gateway serves that is missing here fails
// TestEveryRouteHasACommand.
var cliOfRoute = map[string][]string{
	"POST /v1/users":                               {"user", "add", "u1"},
	"POST /v1/users/{id}/token":                    {"user", "rotate-token", "u1"},
	"DELETE /v1/users/{id}/token":                  {"user", "revoke-token", "u1"},
	"POST /v1/users/{id}/deactivate":               {"user", "deactivate", "u1"},
	"POST /v1/users/{id}/reactivate":               {"user", "reactivate", "u1"},
	"DELETE /v1/users/{id}":                        {"user", "erase", "u1"},
	"POST /v1/agents":                              {"agent", "add", "a1", "-description", "d"},
	"POST /v1/resources":                           {"resource", "add", "r1", "-kind", "computation", "-description", "d"},
	"PUT /v1/grants/user-agent/{from}/{to}":        {"grant", "user-agent", "u1", "a1"},
	"DELETE /v1/grants/user-agent/{from}/{to}":     {"revoke", "user-agent", "u1", "a1"},
	"PUT /v1/grants/agent-resource/{from}/{to}":    {"grant", "agent-resource", "a1", "r1"},
	"DELETE /v1/grants/agent-resource/{from}/{to}": {"revoke", "agent-resource", "a1", "r1"},
	"POST /v1/batch":                               {"batch", "BATCH_FILE"},
	"GET /v1/access/{user}":                        {"access", "u1"},
	"POST /v1/fragments":                           {"fragment", "write", "-agent", "a1", "-key", "k", "-value", "v"},
	"DELETE /v1/fragments/{id}":                    {"fragment", "delete", "f1"},
	"GET /v1/fragments/{id}/history":               {"fragment", "history", "f1", "-agent", "a1"},
	"POST /v1/relationships":                       {"import", "relationships", "BATCH_FILE"},
	"POST /v1/turns":                               {"turn", "hello", "there"},
	"POST /v1/memory/view":                         {"memory", "view", "-agent", "a1", "-query", "q"},
	"POST /v1/memory/graph":                        {"memory", "graph", "-agent", "a1", "-query", "q"},
	"POST /v1/policies":                            {"policy", "set", "-target", "read", "-kind", "k"},
	"GET /v1/policies":                             {"policy", "list"},
	"POST /v1/queries":                             {"query", "ask", "hello"},
	"GET /v1/queries/{id}":                         {"query", "get", "q1"},
	"GET /v1/queries":                              {"query", "list"},
	"GET /v1/debug/digest":                         {"digest"},
	"GET /v1/audit/visible":                        {"audit", "visible", "-user", "u1"},
	"GET /v1/audit/reads":                          {"audit", "reads"},
	"GET /v1/audit/violations":                     {"audit", "violations"},
	"GET /v1/audit/deliveries":                     {"audit", "deliveries"},
	"GET /v1/audit/metrics":                        {"audit", "metrics"},
	"GET /v1/me":                                   {"me"},
	"GET /v1/access":                               {"access-graph"},
	"GET /v1/grants/changes":                       {"grant-changes"},
	"GET /v1/usage":                                {"usage"},
	"GET /v1/events/stream":                        {"events", "-limit", "1"},
	"GET /healthz":                                 {"health"},
}

// TestEveryRouteHasACommand: every API route the gateway registers has a
// CLI command, and running that command calls exactly that route (a
// recording server stands in for cmem and answers every route).
func TestEveryRouteHasACommand(t *testing.T) {
	srv, err := gateway.New(gateway.Config{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hit []string
	mux := http.NewServeMux()
	var routes []string
	for _, p := range srv.Routes() {
		path := strings.SplitN(p, " ", 2)[1]
		if !strings.HasPrefix(path, "/v1/") && path != "/healthz" {
			continue // the console's pages, /metrics and /openapi.json are not API calls
		}
		routes = append(routes, p)
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hit = append(hit, p)
			mu.Unlock()
			if strings.HasSuffix(p, "/stream") {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte("data: {}\n\n"))
				return
			}
			_, _ = w.Write([]byte(`{"status":"ok","token":"t","revision":1}`))
		})
	}
	ts := httptest.NewServer(mux)
	defer ts.Close()
	batch := filepath.Join(t.TempDir(), "batch.jsonl")
	if err := os.WriteFile(batch, []byte(`{"op":"grant","edge":"user-agent","from":"u1","to":"a1"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CMEM_ADMIN_TOKEN", "admin")
	t.Setenv("CMEM_URL", ts.URL)
	for _, route := range routes {
		args, ok := cliOfRoute[route]
		if !ok {
			t.Errorf("%s has no CLI command: add one and list it in cliOfRoute", route)
			continue
		}
		args = slices.Clone(args)
		if i := slices.Index(args, "BATCH_FILE"); i >= 0 {
			args[i] = batch
		}
		mu.Lock()
		hit = nil
		mu.Unlock()
		var out, errOut bytes.Buffer
		_ = dispatch(args[0], args[1:], &out, &errOut) // the stand-in's answers need not satisfy the command
		mu.Lock()
		got := append([]string(nil), hit...)
		mu.Unlock()
		if len(got) != 1 || got[0] != route {
			t.Errorf("cmem %s called %v, want exactly %s (%s%s)", strings.Join(args, " "), got, route, out.String(), errOut.String())
		}
	}
}
