package locomo

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// A server from before observed_at refuses the field as unknown: the
// write is sent again without it, and the rest of the run leaves it out.
// A refusal for another reason is the run's error, not a retry.
func TestWriteTurnWithoutObservedAt(t *testing.T) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case body["key"] == "refused":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"key is empty","code":"invalid"}`))
		case body["observed_at"] != nil:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"json: unknown field \"observed_at\"","code":"invalid"}`))
		default:
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"fragments":[{"id":"f1"}],"revision":7}`))
		}
	}))
	defer srv.Close()
	a, err := newAPI(srv.URL, "admin")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{api: a}
	when := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	ctx := context.Background()
	for range 2 {
		ans, err := r.writeTurn(ctx, "u", httpclient.Write{Agent: "a", Key: "k", Value: "v", Tier: "shared"}, when)
		if err != nil || ans.Revision != 7 || ans.Fragments[0].ID != "f1" {
			t.Fatalf("write: %+v %v", ans, err)
		}
	}
	if !r.noObservedAt.Load() {
		t.Error("observed_at still on after the server refused it")
	}
	mu.Lock()
	if len(bodies) != 3 || bodies[0]["observed_at"] == nil || bodies[1]["observed_at"] != nil || bodies[2]["observed_at"] != nil {
		t.Errorf("bodies sent: %v", bodies)
	}
	mu.Unlock()
	r.noObservedAt.Store(false)
	if _, err := r.writeTurn(ctx, "u", httpclient.Write{Agent: "a", Key: "refused", Value: "v", Tier: "shared"}, when); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("another 400: %v", err)
	}
	if r.noObservedAt.Load() {
		t.Error("a 400 about something else turned observed_at off")
	}
}

// A session's turns are observed in their order, TurnSpacing apart from
// the session's date; a session without a date gives no time at all.
func TestTurnTimeKeepsTheOrder(t *testing.T) {
	start := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	if got := turnTime(start, 0); !got.Equal(start) {
		t.Errorf("first turn at %v, want the session's date %v", got, start)
	}
	if got := turnTime(start, 3); !got.Equal(start.Add(3 * TurnSpacing)) {
		t.Errorf("fourth turn at %v, want %v", got, start.Add(3*TurnSpacing))
	}
	if !turnTime(start, 2).After(turnTime(start, 1)) {
		t.Error("a later turn is not observed later")
	}
	if got := turnTime(time.Time{}, 5); !got.IsZero() {
		t.Errorf("an undated session's turn got %v", got)
	}
}
