package gateway_test

import (
	"net/http"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// A second value of the same fact supersedes the first: the view shows the
// current one, as_of the one valid then, and GET …/history both; a bad
// as_of or a missing agent is a 400, an unknown fragment a 404.
func TestHistoryAndAsOf(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice := writer(t, c)
	write := func(value, at string) map[string]any {
		w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "tier": "private",
			"key": "Lumen revenue", "value": value, "observed_at": at})
		f := w.Body["fragments"].([]any)[0].(map[string]any)
		f["_revision"] = w.Revision()
		return f
	}
	old := write("41 million", "2023-05-01")
	cur := write("45 million", "2023-08-01")
	if cur["supersedes"] != old["id"] {
		t.Fatalf("second write supersedes %v, want %v", cur["supersedes"], old["id"])
	}
	view := func(asOf string) []any {
		body := map[string]any{"agent": "planner", "query": "Lumen revenue", "min_revision": cur["_revision"], "min_score": -1}
		if asOf != "" {
			body["as_of"] = asOf
		}
		return c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, body).Body["private"].([]any)
	}
	if v := view(""); len(v) != 1 || v[0].(map[string]any)["value"] != "45 million" {
		t.Errorf("current view %v", v)
	}
	if v := view("2023-06-01"); len(v) != 1 || v[0].(map[string]any)["value"] != "41 million" {
		t.Errorf("view as of June %v", v)
	}
	if v := view("2023-05-01"); len(v) != 1 {
		t.Errorf("as_of a date includes that whole day: %v", v)
	}
	h := c.Must(http.StatusOK, "GET", "/v1/fragments/"+old["id"].(string)+"/history?agent=planner", alice, nil)
	vs := h.Body["versions"].([]any)
	if len(vs) != 2 || h.Body["current"] != cur["id"] || vs[0].(map[string]any)["valid_until"] != "2023-08-01T00:00:00Z" {
		t.Errorf("history %s", h.Raw)
	}
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/memory/view", alice, map[string]any{"agent": "planner", "query": "q", "as_of": "last week"}), "invalid", "as_of")
	wantError(t, c.Must(http.StatusBadRequest, "GET", "/v1/fragments/"+old["id"].(string)+"/history", alice, nil), "invalid", "agent")
	wantError(t, c.Must(http.StatusNotFound, "GET", "/v1/fragments/nope/history?agent=planner", alice, nil), "not_found", "fragment nope")
}
