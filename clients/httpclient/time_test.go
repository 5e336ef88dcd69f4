package httpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// The client sends observed_at and as_of as RFC 3339 (and leaves them out
// when zero), asks for a history with the agent, and maps its 404.
func TestObservedAtAsOfAndHistory(t *testing.T) {
	var mu sync.Mutex
	bodies := map[string]map[string]any{}
	var historyURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		raw, _ := io.ReadAll(r.Body)
		var b map[string]any
		_ = json.Unmarshal(raw, &b)
		bodies[r.URL.Path] = b
		switch r.URL.Path {
		case "/v1/fragments/f1/history":
			historyURL = r.URL.String()
			_, _ = w.Write([]byte(`{"versions":[{"id":"f0","observed_at":"2023-05-08T00:00:00Z","valid_until":"2023-08-01T00:00:00Z"},{"id":"f1"}],"current":"f1","revision":9,"graph_revision":8}`))
		case "/v1/fragments/nope/history":
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"error":"fragment nope","code":"not_found"}`))
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	t.Cleanup(srv.Close)
	c, err := httpclient.New(httpclient.Config{BaseURL: srv.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	if _, err := c.WriteFragment(ctx, httpclient.Write{Agent: "a", Key: "k", Value: "v", ObservedAt: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.MemoryView(ctx, httpclient.ViewRequest{Agent: "a", Query: "q"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if got := bodies["/v1/fragments"]["observed_at"]; got != "2023-05-08T13:56:00Z" {
		t.Errorf("observed_at sent as %v", got)
	}
	if _, ok := bodies["/v1/memory/view"]["as_of"]; ok {
		t.Errorf("a zero as_of was sent: %v", bodies["/v1/memory/view"])
	}
	mu.Unlock()
	h, err := c.History(ctx, "f1", "planner")
	if err != nil || h.Current != "f1" || len(h.Versions) != 2 || h.Versions[0].ValidUntil == nil || historyURL != "/v1/fragments/f1/history?agent=planner" {
		t.Fatalf("history %+v %v (asked %s)", h, err, historyURL)
	}
	if _, err := c.History(ctx, "nope", "planner"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown fragment: %v", err)
	}
}
