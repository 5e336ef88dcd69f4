package gateway_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/cmem/cmem/node/nodetest"
)

// observed_at is stored as given (a date is midnight UTC), shown in the
// write's answer and in views; a missing one is the write time; a bad or
// out-of-range one is a 400 that names the field, and nothing is written.
func TestObservedAt(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice := writer(t, c)
	frag := func(key, at string) map[string]any {
		b := map[string]any{"agent": "planner", "key": key, "value": "v", "tier": "private"}
		if at != "" {
			b["observed_at"] = at
		}
		return b
	}
	for _, tc := range []struct{ key, given, want string }{
		{"session one", "2023-05-08", "2023-05-08T00:00:00Z"},
		{"session two", "2023-05-25T13:14:00+02:00", "2023-05-25T11:14:00Z"},
	} {
		w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, frag(tc.key, tc.given))
		f := w.Body["fragments"].([]any)[0].(map[string]any)
		if f["observed_at"] != tc.want {
			t.Errorf("%s: observed_at %v, want %s", tc.given, f["observed_at"], tc.want)
		}
	}
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, frag("no date", ""))
	f := w.Body["fragments"].([]any)[0].(map[string]any)
	if f["observed_at"] != f["created_at"] {
		t.Errorf("without observed_at: %v, want created_at %v", f["observed_at"], f["created_at"])
	}
	tomorrow := time.Now().UTC().Add(50 * time.Hour).Format(time.RFC3339)
	for _, bad := range []string{"yesterday", "07/05/2023", "1899-12-31", "0001-01-01T00:00:00Z", tomorrow} {
		wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/fragments", alice, frag("bad "+bad, bad)), "invalid", "observed_at")
	}
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{
		"agent": "planner", "query": "session one", "min_revision": w.Revision(), "k_user": 100, "min_score": -1})
	got := map[string]any{}
	for _, v := range view.Body["private"].([]any) {
		f := v.(map[string]any)
		got[f["key"].(string)] = f["observed_at"]
	}
	if len(got) != 3 || got["session one"] != "2023-05-08T00:00:00Z" || got["session two"] != "2023-05-25T11:14:00Z" {
		t.Errorf("view's observed times %v", got)
	}
}

// Relative expressions are resolved against observed_at at write time and
// shown with the fragment; one that cannot be resolved stays text and the
// write goes on.
func TestTimeRefsResolvedAtWrite(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	alice := writer(t, c)
	w := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "tier": "private",
		"key": "Caroline charity race", "value": "I ran a charity race last Saturday, recently", "observed_at": "2023-06-09"})
	f := w.Body["fragments"].([]any)[0].(map[string]any)
	refs, _ := f["time_refs"].([]any)
	if len(refs) != 1 {
		t.Fatalf("time_refs %v, want only last Saturday (recently stays text)", f["time_refs"])
	}
	r := refs[0].(map[string]any)
	if r["text"] != "last Saturday" || r["start"] != "2023-06-03T00:00:00Z" || r["end"] != "2023-06-04T00:00:00Z" || r["grain"] != "day" {
		t.Errorf("last Saturday on 9 June 2023 resolved to %v", r)
	}
	view := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{
		"agent": "planner", "query": "charity race", "min_revision": w.Revision(), "min_score": -1})
	vf := view.Body["private"].([]any)[0].(map[string]any)
	if vr, _ := vf["time_refs"].([]any); len(vr) != 1 || vr[0].(map[string]any)["start"] != "2023-06-03T00:00:00Z" {
		t.Errorf("view's time_refs %v", vf["time_refs"])
	}
	c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "planner", "tier": "private",
		"key": "vague", "value": "the other day, a few weeks ago, on Saturday"})
}
