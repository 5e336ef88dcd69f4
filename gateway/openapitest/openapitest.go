// Package openapitest checks live HTTP traffic against the gateway's
// OpenAPI document: a test suite installs Transport as the default
// client's transport, and every request a test sends and every answer it
// receives is validated (by libopenapi-validator, an OpenAPI 3.1
// validator: path, query and header parameters, request and answer
// bodies). A mismatch is a problem the suite's TestMain reports, failing
// the run, so the document cannot drift from what the server does.
//
// It is a test harness: production code never imports it.
package openapitest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"

	"github.com/cmem/cmem/gateway"
)

// Route is one operation of the document.
type Route struct {
	Method, Template string
	re               *regexp.Regexp
	statuses         []string
}

// Transport validates the traffic it carries against gateway.OpenAPI.
type Transport struct {
	next   http.RoundTripper
	v      validator.Validator
	routes []Route

	mu       sync.Mutex
	problems []string
	seen     map[string]bool // "METHOD /template STATUS"
}

var param = regexp.MustCompile(`\{[^}/]+\}`)

// New returns a Transport over next (nil: http.DefaultTransport).
func New(next http.RoundTripper) (*Transport, error) {
	if next == nil {
		next = http.DefaultTransport
	}
	doc, err := libopenapi.NewDocument(gateway.OpenAPI)
	if err != nil {
		return nil, err
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi validator: %v", errs)
	}
	t := &Transport{next: next, v: v, seen: map[string]bool{}}
	for tmpl, item := range model.Model.Paths.PathItems.FromOldest() {
		pat := "^" + param.ReplaceAllString(strings.ReplaceAll(tmpl, ".", `\.`), `[^/]+`)
		if !strings.HasSuffix(tmpl, "/") || tmpl == "/" {
			pat += "$" // a template ending in / is a prefix, as in http.ServeMux
		}
		re := regexp.MustCompile(pat)
		for method, op := range item.GetOperations().FromOldest() {
			r := Route{Method: strings.ToUpper(method), Template: tmpl, re: re}
			for code := range op.Responses.Codes.KeysFromOldest() {
				r.statuses = append(r.statuses, code)
			}
			t.routes = append(t.routes, r)
		}
	}
	// Literal segments win over parameters, as in http.ServeMux
	// (/v1/queries/{id} against /v1/users/{id}/token is no contest, but
	// /v1/access against /v1/access/{user} would be).
	sort.SliceStable(t.routes, func(i, j int) bool {
		return strings.Count(t.routes[i].Template, "{") < strings.Count(t.routes[j].Template, "{")
	})
	return t, nil
}

// Routes are the document's operations.
func (t *Transport) Routes() []Route { return slices.Clone(t.routes) }

func (t *Transport) fail(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.problems = append(t.problems, fmt.Sprintf(format, args...))
}

// RoundTrip implements http.RoundTripper: it sends req, then checks the
// exchange. An event stream is only checked to be documented (it does
// not end).
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		var err error
		if reqBody, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.check(req, reqBody, resp, nil, true)
		return resp, nil
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	if err != nil {
		return resp, err
	}
	t.check(req, reqBody, resp, respBody, false)
	return resp, nil
}

func (t *Transport) check(req *http.Request, reqBody []byte, resp *http.Response, respBody []byte, stream bool) {
	method, path, status := req.Method, req.URL.Path, resp.StatusCode
	i := slices.IndexFunc(t.routes, func(r Route) bool { return r.Method == method && r.re.MatchString(path) })
	if i < 0 {
		if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			return // an unrouted probe; its error body is checked by the contract tests
		}
		t.fail("%s %s answered %d but is not in the document", method, path, status)
		return
	}
	r := t.routes[i]
	code := fmt.Sprint(status)
	if !slices.Contains(r.statuses, code) {
		t.fail("%s %s: status %d is not documented (%.300s)", method, r.Template, status, respBody)
		return
	}
	t.mu.Lock()
	t.seen[method+" "+r.Template+" "+code] = true
	t.mu.Unlock()
	if stream || r.Template == "/" || strings.HasPrefix(r.Template, "/console/") || r.Template == "/favicon.ico" || r.Template == "/metrics" {
		return // not JSON: documented, and that is all there is to check
	}
	// The validator reads the bodies: give it fresh copies.
	vreq := req.Clone(req.Context())
	vreq.Body = io.NopCloser(bytes.NewReader(reqBody))
	if len(reqBody) > 0 && vreq.Header.Get("Content-Type") == "" {
		// The gateway reads every body as JSON, labelled or not.
		vreq.Header.Set("Content-Type", "application/json")
	}
	vresp := *resp
	vresp.Body = io.NopCloser(bytes.NewReader(respBody))
	if status/100 == 2 {
		// A request the server accepted must be one the document allows
		// (refused ones are the bad-input tests' business).
		if ok, errs := t.v.ValidateHttpRequestSync(vreq); !ok {
			t.fail("%s %s accepted a request the document refuses (%s): %s", method, req.URL.RequestURI(), reqBody, describe(errs))
		}
		vreq.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	if ok, errs := t.v.ValidateHttpResponse(vreq, &vresp); !ok {
		t.fail("%s %s %d answer does not conform: %s\n    answer: %.500s", method, req.URL.RequestURI(), status, describe(errs), respBody)
	}
}

func describe(errs []*verrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Message)
		if e.Reason != "" {
			b.WriteString(": " + e.Reason)
		}
		for _, f := range e.SchemaValidationErrors {
			b.WriteString(" [" + f.FieldPath + ": " + f.Reason + "]")
		}
		b.WriteString("; ")
	}
	return b.String()
}

// Report returns the problems seen; with full, also the documented
// success answers no test received (a full run of a suite that claims to
// cover the document).
func (t *Transport) Report(full bool) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := slices.Clone(t.problems)
	if full {
		for _, r := range t.routes {
			for _, code := range r.statuses {
				if code[0] == '2' && !t.seen[r.Method+" "+r.Template+" "+code] {
					out = append(out, fmt.Sprintf("no test saw %s %s answer %s", r.Method, r.Template, code))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
