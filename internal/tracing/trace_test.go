package tracing_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/internal/tracing"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// TestTracedQuery: one query is one trace, from the gateway's server span
// across the bus (trace context in NATS headers) through the coordinator,
// the agent runtime, the agent's model call and its tool call, to the
// aggregation and the replier.
func TestTracedQuery(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev); _ = tp.Shutdown(context.Background()) })

	// Coverage above 1: the offline agent always calls its resources.
	_, c := nodetest.StartClient(t, func(cfg *node.Config) { cfg.Workers.Coverage = 2 })
	admin := nodetest.AdminToken
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "planner", "description": "plans trips to Lyon"})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "guide", "kind": "knowledge_base", "description": "city guide of Lyon",
		"documents": []map[string]string{{"id": "lyon", "text": "Lyon is known for its bouchons."}}})
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/alice/planner", admin, nil)
	c.Must(http.StatusOK, "PUT", "/v1/grants/agent-resource/planner/guide", admin, nil)
	r := c.Must(http.StatusOK, "POST", "/v1/queries", alice, map[string]string{"text": "Where should I eat in Lyon?"})
	if r.Body["status"] != "answered" {
		t.Fatalf("query %s", r.Raw)
	}

	// The server span of POST /v1/queries roots the trace.
	var root sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "POST /v1/queries" {
			root = s
		}
	}
	if root == nil {
		t.Fatalf("no server span for POST /v1/queries among %v", names(rec.Ended()))
	}
	want := []string{"stage coordinator", "stage agent-runtime", "llm.coordinate", "llm.answer", "tool guide", "llm.aggregate", "stage replier"}
	var got map[string]sdktrace.ReadOnlySpan
	deadline := time.Now().Add(time.Minute) // a bound on waiting for the replier's span, not an assertion on speed
	for {
		got = map[string]sdktrace.ReadOnlySpan{}
		for _, s := range rec.Ended() {
			if s.SpanContext().TraceID() == root.SpanContext().TraceID() {
				got[s.Name()] = s
			}
		}
		if hasAll(got, want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !hasAll(got, want) {
		t.Fatalf("the query's trace has spans %v, want all of %v (other spans: %v)", keys(got), want, names(rec.Ended()))
	}
	// The links are parent-child, not just a shared trace id.
	parent := func(child, of string) {
		t.Helper()
		if got[child].Parent().SpanID() != got[of].SpanContext().SpanID() {
			t.Errorf("%s is not a child of %s", child, of)
		}
	}
	parent("tool guide", "llm.answer")
	// The projections applied the query's submission inside its trace too.
	if got["project cmem.query.submitted"] == nil {
		t.Errorf("no projection span for the query's submission")
	}
	parent("llm.answer", "stage agent-runtime")
	if got["stage coordinator"].SpanKind() != trace.SpanKindConsumer || root.SpanKind() != trace.SpanKindServer {
		t.Errorf("span kinds: coordinator %v, gateway %v", got["stage coordinator"].SpanKind(), root.SpanKind())
	}
}

func hasAll(got map[string]sdktrace.ReadOnlySpan, want []string) bool {
	for _, w := range want {
		if got[w] == nil {
			return false
		}
	}
	return true
}

func keys(m map[string]sdktrace.ReadOnlySpan) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func names(spans []sdktrace.ReadOnlySpan) string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return strings.Join(out, ", ")
}

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false},
	} {
		if got := tracing.Enabled(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Enabled(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}
