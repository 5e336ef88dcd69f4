package httpclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
)

// Ask sends as_of only when set, and reads it back from the answer.
func TestAskCarriesAsOf(t *testing.T) {
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b map[string]any
		if err := json.NewDecoder(r.Body).Decode(&b); err != nil || r.URL.Path != "/v1/queries" {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		bodies = append(bodies, b)
		ans := map[string]any{"id": "q1", "status": "answered", "answer": "41", "fragments_read": []string{}, "fragments_written": []string{}}
		if v, ok := b["as_of"]; ok {
			ans["as_of"] = v
		}
		_ = json.NewEncoder(w).Encode(ans)
	}))
	defer srv.Close()
	c, err := httpclient.New(httpclient.Config{BaseURL: srv.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	june := time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)
	a, err := c.Ask(context.Background(), httpclient.Ask{Text: "What was it?", AsOf: june})
	if err != nil || a.AsOf == nil || !a.AsOf.Equal(june) || a.Answer != "41" {
		t.Fatalf("ask as of June: %+v, %v", a, err)
	}
	now, err := c.Ask(context.Background(), httpclient.Ask{Text: "What is it?"})
	if err != nil || now.AsOf != nil {
		t.Fatalf("ask now: %+v, %v", now, err)
	}
	if _, sent := bodies[1]["as_of"]; sent || bodies[0]["as_of"] != "2023-06-01T00:00:00Z" {
		t.Errorf("bodies sent: %v", bodies)
	}
}
