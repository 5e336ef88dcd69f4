package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/resources"
)

// echoServer answers with the method, query, body and X-Api-Key it got;
// /status/N answers N; /big a long body; /slow waits for the client to
// give up.
func echoServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		_, _ = fmt.Fprintf(w, "%s %s %s key=%s ct=%s", r.Method, r.URL.RawQuery, body, r.Header.Get("X-Api-Key"), r.Header.Get("Content-Type"))
	})
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		var code int
		_, _ = fmt.Sscan(r.PathValue("code"), &code)
		w.WriteHeader(code)
		_, _ = io.WriteString(w, "upstream says no\n"+strings.Repeat("detail ", 100))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, strings.Repeat("é", 1000)) // 2 bytes each
	})
	mux.HandleFunc("/slow", func(_ http.ResponseWriter, r *http.Request) {
		// The server notices a closed connection only once the body
		// is consumed.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestHTTPCall(t *testing.T) {
	srv, _ := echoServer(t)
	tests := []struct {
		name, config, args, want string
	}{
		{
			name:   "POST by default, JSON body, headers",
			config: `{"url":%q,"headers":{"X-Api-Key":{"env":"CMEM_SECRET_K"}}}`, args: `{"query":"lyon"}`,
			want: `POST  {"query":"lyon"} key=k1 ct=application/json`,
		},
		{
			name:   "GET sends scalars as query parameters, keeps the URL's own",
			config: `{"url":%q,"method":"get","parameters":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"},"exact":{"type":"boolean"},"skip":{"type":"null"}}}}`,
			args:   `{"q":"a b&c","n":12,"exact":true,"skip":null}`, want: `GET exact=true&fixed=1&n=12&q=a+b%26c  key= ct=`,
		},
		{
			name:   "empty arguments are {}",
			config: `{"url":%q,"parameters":{"type":"object"}}`, args: ``,
			want: `POST  {} key= ct=application/json`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := srv.URL + "/echo"
			if strings.Contains(tt.config, `"get"`) {
				u += "?fixed=1#frag"
			}
			tool := mustBuildOpts(t, "http", fmt.Sprintf(tt.config, u), resources.Options{HTTPClient: srv.Client(),
				LookupEnv: func(n string) (string, bool) { return "k1", n == "CMEM_SECRET_K" }})
			out, err := tool.Call(context.Background(), json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if out != tt.want {
				t.Fatalf("Call = %q, want %q", out, tt.want)
			}
		})
	}
}

func TestHTTPTruncatesResponse(t *testing.T) {
	srv, _ := echoServer(t)
	tool := mustBuild(t, "http", fmt.Sprintf(`{"url":%q,"max_response_bytes":101}`, srv.URL+"/big"))
	out, err := tool.Call(context.Background(), json.RawMessage(`{"query":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 101 bytes end inside a 2-byte character, which is dropped.
	if want := strings.Repeat("é", 50) + "\n[truncated at 101 bytes]"; out != want {
		t.Fatalf("Call = %q, want %q", out, want)
	}
}

func TestHTTPCallErrors(t *testing.T) {
	srv, hits := echoServer(t)
	tests := []struct {
		name, config, args string
		wantErr            error
		wantMsg            string
		wantHit            bool
	}{
		{name: "missing required argument", config: `{"url":"%s/echo"}`, args: `{}`, wantErr: resources.ErrArguments, wantMsg: "query"},
		{name: "wrong type", config: `{"url":"%s/echo"}`, args: `{"query":3}`, wantErr: resources.ErrArguments, wantMsg: "/query"},
		{name: "not JSON", config: `{"url":"%s/echo"}`, args: `{"query"`, wantErr: resources.ErrArguments},
		{name: "custom schema", config: `{"url":"%s/echo","parameters":{"type":"object","properties":{"days":{"type":"integer","maximum":30}},"required":["days"]}}`,
			args: `{"days":31}`, wantErr: resources.ErrArguments, wantMsg: "/days"},
		{name: "GET refuses nested values", config: `{"url":"%s/echo","method":"GET","parameters":{"type":"object"}}`,
			args: `{"filter":{"city":"lyon"}}`, wantErr: resources.ErrArguments, wantMsg: `"filter"`},
		{name: "non-2xx", config: `{"url":"%s/status/503"}`, args: `{"query":"x"}`, wantErr: resources.ErrCall,
			wantMsg: "status 503: upstream says no detail", wantHit: true},
		{name: "404", config: `{"url":"%s/status/404"}`, args: `{"query":"x"}`, wantErr: resources.ErrCall, wantMsg: "status 404", wantHit: true},
		{name: "timeout", config: `{"url":"%s/slow","timeout_ms":50}`, args: `{"query":"x"}`, wantErr: context.DeadlineExceeded},
		{name: "connection refused", config: `{"url":"http://127.0.0.1:1/x%.0s"}`, args: `{"query":"x"}`, wantErr: resources.ErrCall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mustBuild(t, "http", fmt.Sprintf(tt.config, srv.URL))
			before := hits.Load()
			out, err := tool.Call(context.Background(), json.RawMessage(tt.args))
			if !errors.Is(err, tt.wantErr) || !strings.Contains(fmt.Sprint(err), tt.wantMsg) {
				t.Fatalf("Call = %q, %v; want %v mentioning %q", out, err, tt.wantErr, tt.wantMsg)
			}
			if hit := hits.Load() != before; hit != tt.wantHit {
				t.Fatalf("server hit = %v, want %v (arguments are checked before any request)", hit, tt.wantHit)
			}
			if len(err.Error()) > 600 {
				t.Fatalf("error is %d bytes; the body excerpt should be short", len(err.Error()))
			}
		})
	}
}

func TestHTTPTimeoutIsAlsoErrCall(t *testing.T) {
	srv, _ := echoServer(t)
	tool := mustBuild(t, "http", fmt.Sprintf(`{"url":"%s/slow","timeout_ms":20}`, srv.URL))
	if _, err := tool.Call(context.Background(), json.RawMessage(`{"query":"x"}`)); !errors.Is(err, resources.ErrCall) {
		t.Fatalf("Call = %v, want ErrCall", err)
	}
}

func TestHTTPConfigErrors(t *testing.T) {
	tests := []struct{ name, config, wantMsg string }{
		{"no url", `{}`, "url is required"},
		{"bad scheme", `{"url":"file:///etc/passwd"}`, `scheme must be http or https, not "file"`},
		{"no host", `{"url":"http:///x"}`, "host is missing"},
		{"unparsable url", `{"url":"http://a b"}`, "url:"},
		{"method", `{"url":"http://x","method":"DELETE"}`, `method must be GET or POST, not "DELETE"`},
		{"timeout negative", `{"url":"http://x","timeout_ms":-1}`, "timeout_ms must be in 1..60000"},
		{"timeout too long", `{"url":"http://x","timeout_ms":600000}`, "timeout_ms"},
		{"response cap", `{"url":"http://x","max_response_bytes":2097152}`, "max_response_bytes must be in 1..1048576"},
		{"header name", `{"url":"http://x","headers":{"Bad Name":"v"}}`, `headers["Bad Name"]`},
		{"header value", `{"url":"http://x","headers":{"X-A":"v\r\nX-B: w"}}`, "CR, LF"},
		{"framing header", `{"url":"http://x","headers":{"content-length":"3"}}`, "set by the client"},
		{"headers not strings", `{"url":"http://x","headers":{"X-A":1}}`, `headers: a value is a string`},
		{"parameters not object", `{"url":"http://x","parameters":[1]}`, "JSON Schema object"},
		{"parameters not type object", `{"url":"http://x","parameters":{"type":"string"}}`, `"type": "object"`},
		{"parameters invalid schema", `{"url":"http://x","parameters":{"type":"object","properties":{"a":{"type":"strin"}}}}`, "parameters"},
		{"no file refs", `{"url":"http://x","parameters":{"type":"object","$ref":"file:///etc/passwd"}}`, "external schema references are not allowed"},
		{"no remote refs", `{"url":"http://x","parameters":{"type":"object","$ref":"https://example.com/s.json"}}`, "external schema references are not allowed"},
		{"several at once", `{"url":"ftp://x","method":"PUT"}`, "method must be GET or POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resources.Build("h", "http", "", json.RawMessage(tt.config), resources.Options{})
			if !errors.Is(err, resources.ErrConfig) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Build = %v, want ErrConfig mentioning %q", err, tt.wantMsg)
			}
		})
	}
}

func TestHTTPDefaultParameters(t *testing.T) {
	tool := mustBuild(t, "http", `{"url":"https://example.com"}`)
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tool.Parameters(), &schema); err != nil || len(schema.Required) != 1 || schema.Required[0] != "query" {
		t.Fatalf("Parameters = %s, want the default query schema", tool.Parameters())
	}
}
