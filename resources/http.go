package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrCall is wrapped by errors of a call that reached for an external
// service and failed there: transport errors, timeouts and non-2xx
// answers. The agent may retry or do without; the arguments were fine.
var ErrCall = errors.New("resources: call failed")

// httpConfig is the config of an http resource.
type httpConfig struct {
	URL              string                 `json:"url"`
	Method           string                 `json:"method"`
	Parameters       json.RawMessage        `json:"parameters"`
	Headers          map[string]headerValue `json:"headers"`
	TimeoutMS        int                    `json:"timeout_ms"`
	MaxResponseBytes int                    `json:"max_response_bytes"`
}

const defaultHTTPParameters = `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`

// excerptBytes is how much of a failed answer's body an error quotes: enough
// to show an upstream error message, not enough to flood the agent.
const excerptBytes = 256

type httpTool struct {
	base
	client   *http.Client
	url      *url.URL
	method   string
	headers  http.Header
	secrets  map[string]headerValue // resolved at every call
	opts     Options
	timeout  time.Duration
	maxBytes int
}

func buildHTTP(b base, raw json.RawMessage, opts Options) (*httpTool, error) {
	var cfg httpConfig
	if err := decodeConfig(raw, &cfg); err != nil {
		return nil, err
	}
	client := *opts.HTTPClient
	client.CheckRedirect = noCredentialsAcrossHosts(client.CheckRedirect)
	t := &httpTool{
		base:     b,
		client:   &client,
		secrets:  map[string]headerValue{},
		opts:     opts,
		method:   strings.ToUpper(cfg.Method),
		headers:  make(http.Header, len(cfg.Headers)),
		timeout:  time.Duration(cfg.TimeoutMS) * time.Millisecond,
		maxBytes: cfg.MaxResponseBytes,
	}
	var errs []error
	u, err := url.Parse(cfg.URL)
	switch {
	case cfg.URL == "":
		errs = append(errs, errors.New("url is required"))
	case err != nil:
		errs = append(errs, fmt.Errorf("url: %w", err))
	case u.Scheme != "http" && u.Scheme != "https":
		errs = append(errs, fmt.Errorf("url: scheme must be http or https, not %q", u.Scheme))
	case u.Host == "":
		errs = append(errs, errors.New("url: host is missing"))
	case checkURLCredentials(u) != nil:
		errs = append(errs, checkURLCredentials(u))
	default:
		u.Fragment, u.RawFragment = "", ""
		t.url = u
	}
	if t.method == "" {
		t.method = http.MethodPost
	}
	if t.method != http.MethodGet && t.method != http.MethodPost {
		errs = append(errs, fmt.Errorf("method must be GET or POST, not %q", cfg.Method))
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Headers)) {
		value := cfg.Headers[name]
		if err := checkHeader(name, value.Literal); err != nil {
			errs = append(errs, fmt.Errorf("headers[%q]: %w", name, err))
			continue
		}
		switch {
		case value.isRef():
			if err := checkRef(value, opts); err != nil {
				errs = append(errs, fmt.Errorf("headers[%q]: %w", name, err))
			}
			t.secrets[http.CanonicalHeaderKey(name)] = value
		case carriesCredential(name):
			errs = append(errs, fmt.Errorf(`headers[%q]: carries a credential, which the log would keep forever; pass it by reference: {"env": "%sNAME"} (a variable of the server) or {"file": "name"} (a file in CMEM_SECRETS_DIR)`, name, SecretEnvPrefix))
		default:
			t.headers.Set(name, value.Literal)
		}
	}
	switch {
	case cfg.TimeoutMS == 0:
		t.timeout = DefaultHTTPTimeout
	case cfg.TimeoutMS < 0 || int64(cfg.TimeoutMS) > opts.MaxHTTPTimeout.Milliseconds():
		errs = append(errs, fmt.Errorf("timeout_ms must be in 1..%d", opts.MaxHTTPTimeout.Milliseconds()))
	}
	switch {
	case cfg.MaxResponseBytes == 0:
		t.maxBytes = min(DefaultHTTPMaxResponseBytes, opts.MaxHTTPResponseBytes)
	case cfg.MaxResponseBytes < 0 || cfg.MaxResponseBytes > opts.MaxHTTPResponseBytes:
		errs = append(errs, fmt.Errorf("max_response_bytes must be in 1..%d", opts.MaxHTTPResponseBytes))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	params := bytes.TrimSpace(cfg.Parameters)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		params = []byte(defaultHTTPParameters)
	}
	if t.schema, err = compileArgSchema(params, opts.MaxArgumentBytes); err != nil {
		return nil, err
	}
	// Compact, because the schema is sent to the model with every request.
	var buf bytes.Buffer
	if err := json.Compact(&buf, params); err != nil {
		return nil, fmt.Errorf("%w: parameters: %w", ErrConfig, err)
	}
	t.params = buf.Bytes()
	return t, nil
}

// checkHeader refuses headers that net/http would reject at call time, and
// those that describe the request's framing, which the client sets itself.
func checkHeader(name, value string) error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) {
		return errors.New("not a valid header name")
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return errors.New("value must not contain CR, LF or NUL")
	}
	switch http.CanonicalHeaderKey(name) {
	case "Host", "Content-Length", "Transfer-Encoding", "Connection":
		return errors.New("set by the client, not configurable")
	}
	return nil
}

// Call implements Tool: it checks args against the resource's parameters,
// then sends them (POST: JSON body; GET: query parameters) and returns the
// answer's body, cut to max_response_bytes.
func (t *httpTool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	doc, err := t.schema.check(args)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := t.request(ctx, args, doc)
	if err != nil {
		return "", err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: %s %s: %w", ErrCall, t.method, t.where(), unwrapURLError(err))
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, excerptBytes))
		return "", fmt.Errorf("%w: %s %s: status %d: %s", ErrCall, t.method, t.where(), resp.StatusCode, excerpt(body))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(t.maxBytes)+1))
	if err != nil {
		return "", fmt.Errorf("%w: %s %s: reading the answer: %w", ErrCall, t.method, t.where(), err)
	}
	if len(body) > t.maxBytes {
		return toText(cutPartialRune(body[:t.maxBytes])) + fmt.Sprintf("\n[truncated at %d bytes]", t.maxBytes), nil
	}
	return toText(body), nil
}

// request builds the request for args, which passed the schema; doc is
// their decoded form.
func (t *httpTool) request(ctx context.Context, args json.RawMessage, doc any) (*http.Request, error) {
	u := *t.url
	var body io.Reader
	if t.method == http.MethodGet {
		q, err := queryOf(doc, u.Query())
		if err != nil {
			return nil, err
		}
		u.RawQuery = q.Encode()
	} else {
		if len(bytes.TrimSpace(args)) == 0 {
			args = json.RawMessage("{}")
		}
		body = bytes.NewReader(args)
	}
	req, err := http.NewRequestWithContext(ctx, t.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s: %w", ErrCall, t.method, t.where(), err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", "cmem-resources/1")
	for name, values := range t.headers {
		req.Header[name] = values
	}
	for name, ref := range t.secrets {
		v, err := resolve(ref, t.opts)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %s: header %s: %w", ErrCall, t.method, t.where(), name, err)
		}
		req.Header.Set(name, v)
	}
	return req, nil
}

// queryOf adds the top-level scalars of doc to q. Nested values have no
// single query-string form, so they are an argument error rather than a
// guess.
func queryOf(doc any, q url.Values) (url.Values, error) {
	obj, _ := doc.(map[string]any)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch v := obj[k].(type) {
		case nil:
			// An explicit null is the same as leaving the parameter out.
		case string:
			q.Set(k, v)
		case json.Number:
			q.Set(k, v.String())
		case bool:
			q.Set(k, fmt.Sprint(v))
		default:
			return nil, fmt.Errorf("%w: %q: a GET resource takes only strings, numbers and booleans", ErrArguments, k)
		}
	}
	return q, nil
}

// where names the endpoint in errors without its query or credentials,
// which may hold secrets.
func (t *httpTool) where() string {
	return t.url.Scheme + "://" + t.url.Host + t.url.Path
}

// unwrapURLError drops *url.Error's own "Post "URL": " prefix, which would
// repeat the full URL; the cause (and context errors) stay matchable.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func excerpt(body []byte) string {
	s := strings.Join(strings.Fields(toText(cutPartialRune(body))), " ")
	if len(body) == excerptBytes {
		s += "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}

// toText replaces invalid bytes so the agent always gets valid text.
func toText(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// cutPartialRune drops a UTF-8 sequence that truncation left incomplete at
// the end of b.
func cutPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}
