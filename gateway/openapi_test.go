package gateway_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/schemas"
)

// The OpenAPI conformance check: every route the gateway registers is in the
// document and vice versa (TestOpenAPIRoutes), and every request and answer
// the tests of this package exchange over HTTP validates against the
// document (TestMain wraps the default transport; a mismatch fails the run,
// and a full run fails if an operation's success answer was never seen).

const docURL = "https://cmem.invalid/openapi.json"

type openAPIDoc struct {
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

type operation struct {
	RequestBody *struct {
		Content map[string]json.RawMessage `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Content map[string]json.RawMessage `json:"content"`
	} `json:"responses"`
}

// conformance validates traffic against the document.
type conformance struct {
	next     http.RoundTripper
	compiler *jsonschema.Compiler
	doc      openAPIDoc
	routes   []route

	mu       sync.Mutex
	problems []string
	seen     map[string]bool // "METHOD /template STATUS"
}

type route struct {
	method, template string
	re               *regexp.Regexp
}

var checker *conformance

func TestMain(m *testing.M) {
	c, err := newConformance(http.DefaultTransport)
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	checker = c
	http.DefaultClient.Transport = c
	code := m.Run()
	if problems := c.report(code == 0 && flag.Lookup("test.run").Value.String() == ""); len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the traffic of the tests does not conform to gateway/openapi.json:\n  %s\n", strings.Join(problems, "\n  "))
		code = 1
	}
	os.Exit(code)
}

var param = regexp.MustCompile(`\{[^}/]+\}`)

func newConformance(next http.RoundTripper) (*conformance, error) {
	c := &conformance{next: next, seen: map[string]bool{}}
	if err := json.Unmarshal(gateway.OpenAPI, &c.doc); err != nil {
		return nil, err
	}
	var raw any
	if err := json.Unmarshal(gateway.OpenAPI, &raw); err != nil {
		return nil, err
	}
	c.compiler = jsonschema.NewCompiler()
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	if err := c.compiler.AddResource(docURL, raw); err != nil {
		return nil, err
	}
	for tmpl, item := range c.doc.Paths {
		pat := "^" + param.ReplaceAllString(strings.ReplaceAll(tmpl, ".", `\.`), `[^/]+`)
		if !strings.HasSuffix(tmpl, "/") || tmpl == "/" {
			pat += "$" // a template ending in / is a prefix, as in http.ServeMux
		}
		re := regexp.MustCompile(pat)
		for m := range item {
			if m != "parameters" {
				c.routes = append(c.routes, route{method: strings.ToUpper(m), template: tmpl, re: re})
			}
		}
	}
	return c, nil
}

func (c *conformance) fail(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func pointer(parts ...string) string {
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return docURL + "#/" + strings.Join(parts, "/")
}

// validate checks body against the schema at ptr.
func (c *conformance) validate(ptr string, body []byte) error {
	c.mu.Lock()
	sch, err := c.compiler.Compile(ptr)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("%s", schemas.Describe(err))
	}
	return nil
}

func (c *conformance) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		var err error
		if reqBody, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A stream does not end: it is only checked to be a documented route.
		c.check(req.Method, req.URL.Path, nil, resp.StatusCode, "", nil)
		return resp, nil
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	if err != nil {
		return resp, err
	}
	c.check(req.Method, req.URL.Path, reqBody, resp.StatusCode, resp.Header.Get("Content-Type"), respBody)
	return resp, nil
}

func (c *conformance) check(method, path string, reqBody []byte, status int, ctype string, respBody []byte) {
	i := slices.IndexFunc(c.routes, func(r route) bool { return r.method == method && r.re.MatchString(path) })
	if i < 0 {
		if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			return // an unrouted probe; its error body is checked by the contract tests
		}
		c.fail("%s %s answered %d but is not in the document", method, path, status)
		return
	}
	r := c.routes[i]
	var op operation
	_ = json.Unmarshal(c.doc.Paths[r.template][strings.ToLower(method)], &op)
	code := fmt.Sprint(status)
	res, ok := op.Responses[code]
	if !ok {
		c.fail("%s %s: status %d is not documented (%s)", method, r.template, status, respBody)
		return
	}
	c.mu.Lock()
	c.seen[method+" "+r.template+" "+code] = true
	c.mu.Unlock()
	if strings.HasPrefix(ctype, "application/json") {
		if _, ok := res.Content["application/json"]; !ok {
			c.fail("%s %s %d: JSON answer, but the document gives no JSON schema", method, r.template, status)
		} else if err := c.validate(pointer("paths", r.template, strings.ToLower(method), "responses", code, "content", "application/json", "schema"), respBody); err != nil {
			c.fail("%s %s %d answer %s: %v", method, r.template, status, respBody, err)
		}
	}
	if status/100 == 2 && len(bytes.TrimSpace(reqBody)) > 0 {
		if op.RequestBody == nil {
			c.fail("%s %s: accepted a body the document does not describe: %s", method, r.template, reqBody)
		} else if err := c.validate(pointer("paths", r.template, strings.ToLower(method), "requestBody", "content", "application/json", "schema"), reqBody); err != nil {
			c.fail("%s %s: accepted request %s that the document refuses: %v", method, r.template, reqBody, err)
		}
	}
}

// report returns the problems, and with full the operations whose success
// answer no test saw.
func (c *conformance) report(full bool) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.problems)
	if full {
		for _, r := range c.routes {
			var op operation
			_ = json.Unmarshal(c.doc.Paths[r.template][strings.ToLower(r.method)], &op)
			for code := range op.Responses {
				if code[0] == '2' && !c.seen[r.method+" "+r.template+" "+code] {
					out = append(out, fmt.Sprintf("no test saw %s %s answer %s", r.method, r.template, code))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestOpenAPIRoutes: the document and the gateway's routes are the same set,
// and the document is served at /openapi.json.
func TestOpenAPIRoutes(t *testing.T) {
	srv, err := gateway.New(gateway.DefaultConfig(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return param.ReplaceAllString(strings.ReplaceAll(s, "{$}", ""), "{}") }
	var served, documented []string
	for _, p := range srv.Routes() {
		served = append(served, norm(p))
	}
	for _, r := range checker.routes {
		documented = append(documented, norm(r.method+" "+r.template))
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
	for name := range doc.Components.Schemas {
		if _, err := checker.compiler.Compile(pointer("components", "schemas", name)); err != nil {
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
