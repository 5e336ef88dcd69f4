package e2e_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Summary markers (zqr…, so the copying model copies them): zqrpub<letters> is a plain statement a summary reader may
// read (letters only, so it is no identifying value); zqrsec<letters> sits
// in a credential sentence and zqrn<digits> is an identifying value
// in a logistics sentence the summary keeps, both restricted details no
// summary may carry.
var (
	publicMarker     = regexp.MustCompile(`zqrpub[a-z]+`)
	restrictedMarker = regexp.MustCompile(`zqrsec[a-z]+|zqrn[0-9]+`)
)

func letters(n int) string {
	s := ""
	for n++; n > 0; n /= 26 {
		s = string(rune('a'+(n-1)%26)) + s
	}
	return s
}

// The copying model against summary reads: a steward speaks public facts,
// credentials and amounts about project pa; u1 reads pa as a summary, u2
// not at all. Every answer, step and memory view of u1 holds public
// markers only (and some: the summary is no over-refusal), no answer of
// u1 is a plain answer (the outcome with the offline model is tested in
// experiments/gatemem), u2 reads none; a public fact the steward
// erases leaves u1's summary too. The probe sees a leak when u1 is given
// the full scope, so it can fail.
func TestCopyingModelSummaryCarriesNoRestrictedDetail(t *testing.T) {
	_, c, tokens := leakNode(t, copycat)
	schema := map[string]any{"self": "record_{principal_id}", "types": map[string]any{
		"project_member": map[string]any{"subject": "principal_id", "scope": "project_{project_id}", "read": "full", "steward": true},
		"project_guest":  map[string]any{"subject": "principal_id", "scope": "project_{project_id}", "read": "summary"},
	}}
	c.Must(http.StatusOK, "POST", "/v1/relationships", admin, map[string]any{"schema": schema, "relationships": []any{
		map[string]string{"type": "project_member", "project_id": "pa", "principal_id": "u0"},
		map[string]string{"type": "project_guest", "project_id": "pa", "principal_id": "u1"},
	}, "principals": []string{"u2"}})
	for i := range 6 {
		c.Must(http.StatusCreated, "POST", "/v1/turns", tokens["u0"], map[string]string{"text": fmt.Sprintf(
			"pa facts: the milestone zqrpub%s is due on Friday. The pa passphrase is zqrsec%s. The review on Monday moves zqrn%d slots.", letters(i), letters(i), 1000+i)})
	}
	erasedMarker := "zqrpub" + letters(0)
	r := c.Must(http.StatusCreated, "POST", "/v1/turns", tokens["u0"], map[string]string{"text": "Please delete pa facts '" + erasedMarker + "' from memory."})
	if !slices.ContainsFunc(r.Body["governance"].([]any), func(g any) bool { return g.(map[string]any)["applied"] == true }) {
		t.Fatalf("the steward's erasure was not applied: %s", r.Raw)
	}
	var leaks []string
	public := 0
	check := func(where, u, text string) {
		for _, m := range restrictedMarker.FindAllString(text, -1) {
			if u != "u0" {
				leaks = append(leaks, fmt.Sprintf("%s to %s: %s", where, u, m))
			}
		}
		for _, m := range publicMarker.FindAllString(text, -1) {
			switch {
			case m == erasedMarker:
				leaks = append(leaks, fmt.Sprintf("%s to %s: erased %s", where, u, m))
			case u == "u2":
				leaks = append(leaks, fmt.Sprintf("%s to %s: %s", where, u, m))
			case u == "u1":
				public++
			}
		}
	}
	redacted := 0
	for _, u := range []string{"u1", "u2"} {
		for _, q := range []string{"pa facts milestone", "pa passphrase and budget", "what are the pa facts"} {
			r := c.Must(http.StatusOK, "POST", "/v1/queries", tokens[u], map[string]any{"text": q})
			check("answer", u, string(r.Raw))
			if u == "u1" && r.Body["outcome"] == "answer" {
				// Resting on a summary read, an answer is at most answer_redacted.
				t.Errorf("u1's answer has outcome answer: %s", r.Raw)
			}
			if r.Body["outcome"] == "answer_redacted" {
				redacted++
			}
		}
	}
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens["u1"], map[string]any{"agent": "scope-project_pa-summary", "query": "pa facts passphrase budget", "k_user": 100, "k_cross": 100, "min_score": -1})
	check("summary view", "u1", string(v.Raw))
	t.Logf("%d public markers reached the summary reader, %d answer_redacted, leaks %v", public, redacted, leaks)
	if public < 5 {
		t.Fatalf("the summary reader got too little (%d public markers): over-refusal", public)
	}
	if len(leaks) > 0 {
		t.Fatalf("%d leaks, e.g. %v", len(leaks), leaks[:min(5, len(leaks))])
	}
	// The probe can see a leak: give u1 the full scope behind the model's
	// back, and u1's view holds restricted markers the check does not expect.
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/u1/scope-project_pa", admin, nil)
	v = c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens["u1"], map[string]any{"agent": "scope-project_pa", "query": "pa passphrase budget", "k_user": 100, "k_cross": 100, "min_score": -1})
	check("probe", "u1", string(v.Raw))
	if len(leaks) == 0 || !strings.Contains(strings.Join(leaks, " "), "probe") {
		t.Fatal("the probe saw no leak where one was planted: it cannot see leaks")
	}
}
