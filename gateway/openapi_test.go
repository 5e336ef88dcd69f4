package gateway_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/gateway/openapitest"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// The OpenAPI conformance check: every route the gateway registers is in the
// document and vice versa (TestOpenAPIRoutes), and every request and answer
// the tests of this package exchange over HTTP validates against the
// document (TestMain installs openapitest's transport as the default
// client's; a mismatch fails the run, and a full run fails if an
// operation's success answer was never seen).

const docURL = "https://cmem.invalid/openapi.json"

var checker *openapitest.Transport

func TestMain(m *testing.M) {
	c, err := openapitest.New(http.DefaultTransport)
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	checker = c
	http.DefaultClient.Transport = c
	code := m.Run()
	if problems := c.Report(code == 0 && flag.Lookup("test.run").Value.String() == ""); len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the traffic of the tests does not conform to gateway/openapi.json:\n  %s\n", strings.Join(problems, "\n  "))
		code = 1
	}
	os.Exit(code)
}

var param = regexp.MustCompile(`\{[^}/]+\}`)

func pointer(parts ...string) string {
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return docURL + "#/" + strings.Join(parts, "/")
}

// TestOpenAPIRoutes: the document and the gateway's routes are the same set,
// and the document is served at /openapi.json.
func TestOpenAPIRoutes(t *testing.T) {
	srv, err := gateway.New(gateway.DefaultConfig(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A served pattern ending in / is a subtree; the document names a file
	// of it with a parameter (/console/{asset}), as Redocly requires.
	norm := func(s string) string {
		s = param.ReplaceAllString(strings.ReplaceAll(s, "{$}", ""), "{}")
		if strings.HasSuffix(s, "/") && s != "GET /" {
			s += "{}"
		}
		return s
	}
	var served, documented []string
	for _, p := range srv.Routes() {
		served = append(served, norm(p))
	}
	for _, r := range checker.Routes() {
		documented = append(documented, norm(r.Method+" "+r.Template))
	}
	for _, p := range served {
		if !slices.Contains(documented, p) {
			t.Errorf("route %s is served but not in gateway/openapi.json", p)
		}
	}
	for _, p := range documented {
		if !slices.Contains(served, p) {
			t.Errorf("operation %s is in gateway/openapi.json but not served", p)
		}
	}
	// Every schema in the document compiles (a typo in a $ref fails here).
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(gateway.OpenAPI, &doc); err != nil {
		t.Fatal(err)
	}
	var raw any
	if err := json.Unmarshal(gateway.OpenAPI, &raw); err != nil {
		t.Fatal(err)
	}
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	if err := compiler.AddResource(docURL, raw); err != nil {
		t.Fatal(err)
	}
	for name := range doc.Components.Schemas {
		if _, err := compiler.Compile(pointer("components", "schemas", name)); err != nil {
			t.Errorf("schema %s: %v", name, err)
		}
	}
}

// TestOpenAPIFlows exercises the operations the contract tests leave out, so
// their shapes are checked too: the document itself, policies, and queries
// answered (200) and still running (202, on a gateway without workers).
func TestOpenAPIFlows(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	r := c.Must(http.StatusOK, "GET", "/openapi.json", "", nil)
	if r.Body["openapi"] != "3.1.0" || !bytes.Equal(r.Raw, gateway.OpenAPI) {
		t.Fatalf("GET /openapi.json: %.200s", r.Raw)
	}
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips"})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, map[string]string{"ttl": "8h"})
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "redact", "config": map[string]bool{"emails": true}})
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "read", "scope": map[string]string{"agent": "planner"}, "kind": "simple"})
	if r := c.Must(http.StatusOK, "GET", "/v1/policies", admin, nil); len(r.Body["policies"].([]any)) != 2 {
		t.Fatalf("policies %s", r.Raw)
	}
	r = c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]any{"text": "plan a day in Lyon"})
	c.Must(http.StatusOK, "GET", "/v1/queries/"+r.Body["id"].(string)+"?wait=1", alice, nil)
	c.Must(http.StatusOK, "GET", "/v1/audit/deliveries?query="+r.Body["id"].(string)+"&min_revision="+strconv.FormatUint(r.Revision(), 10), admin, nil)
	c.Must(http.StatusOK, "GET", "/v1/debug/digest", admin, nil)
	c.Must(http.StatusOK, "POST", "/v1/batch", admin, map[string]any{"items": []map[string]any{
		{"op": "register_user", "id": "carol"},
		{"op": "register_agent", "id": "guide", "description": "guides"},
		{"op": "register_resource", "id": "notes", "kind": "knowledge_base", "documents": []map[string]string{{"id": "d", "text": "t"}}},
		{"op": "grant", "edge": "user-agent", "from": "carol", "to": "guide", "ttl": "1h"},
		{"op": "grant", "edge": "agent-resource", "from": "guide", "to": "notes"},
		{"op": "revoke", "edge": "agent-resource", "from": "guide", "to": "notes"},
	}})
	c.Must(http.StatusOK, "POST", "/v1/batch", alice, map[string]any{"items": []map[string]any{
		{"op": "write_fragment", "agent": "planner", "key": "k", "value": "v", "tier": "private"}}})
	c.Must(http.StatusForbidden, "POST", "/v1/batch", alice, map[string]any{"items": []map[string]any{
		{"op": "grant", "edge": "user-agent", "from": "alice", "to": "guide"}}})

	// The identity lifecycle and erasure.
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "key": "k", "value": "v", "tier": "private"})
	c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+w.Body["fragments"].([]any)[0].(map[string]any)["id"].(string), alice, nil)
	rotated := c.Must(http.StatusCreated, "POST", "/v1/users/alice/token", alice, nil).Body["token"].(string)
	c.Must(http.StatusOK, "POST", "/v1/users/alice/deactivate", admin, nil)
	c.Must(http.StatusOK, "POST", "/v1/users/alice/reactivate", admin, nil)
	c.Must(http.StatusOK, "DELETE", "/v1/users/alice/token", rotated, nil)
	c.Must(http.StatusOK, "DELETE", "/v1/users/alice", admin, nil)

	_, g := nodetest.StartClient(t, func(cfg *node.Config) { cfg.Role = node.RoleGateway })
	bob := g.User("bob", "user")
	r = g.Must(http.StatusAccepted, "POST", "/v1/queries", bob, map[string]any{"text": "anyone there?", "wait": false})
	g.Must(http.StatusAccepted, "GET", "/v1/queries/"+r.Body["id"].(string), bob, nil)
}
