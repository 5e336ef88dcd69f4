package gatemem

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/experiments/embedded"
)

// org starts a fresh cmem with four principals and the office mapping:
// ava (Heron member, steward), theo (Heron contractor, summary only),
// lucia (Osprey member), omar (no relationship).
func org(t *testing.T) (*api, map[string]string) {
	t.Helper()
	ctx := context.Background()
	n, err := embedded.Start(ctx, embedded.Options{Source: "cmem/gatemem", ReadWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	a, err := newAPI(n.BaseURL, n.Token, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r := &episodeRun{api: a, tokens: map[string]string{}, texts: map[string]string{}, stats: &Stats{}}
	ep := Episode{ID: "t", Domain: "office"}
	for _, p := range []string{"ava", "theo", "lucia", "omar"} {
		ep.Entities.Principals = append(ep.Entities.Principals, Principal{ID: p})
	}
	ep.Entities.Relationships = []map[string]any{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
		{"type": "contractor_for_project", "project_id": "heron", "principal_id": "theo"},
		{"type": "project_member", "project_id": "osprey", "principal_id": "lucia"},
	}
	if err := r.setup(ctx, ep); err != nil {
		t.Fatal(err)
	}
	return a, r.tokens
}

type turnAnswer struct {
	Revision  uint64 `json:"revision"`
	Fragments []struct {
		ID     string   `json:"id"`
		Value  string   `json:"value"`
		Agents []string `json:"agents"`
	} `json:"fragments"`
	Decision struct {
		Scopes []string `json:"scopes"`
	} `json:"decision"`
	Governance []struct {
		Kind    string   `json:"kind"`
		Scope   string   `json:"scope"`
		Applied bool     `json:"applied"`
		Targets []string `json:"targets"`
	} `json:"governance"`
}

func say(t *testing.T, a *api, token, text string) turnAnswer {
	t.Helper()
	var ans turnAnswer
	if _, err := a.do(context.Background(), token, http.MethodPost, "/v1/turns", map[string]string{"text": text}, &ans); err != nil {
		t.Fatal(err)
	}
	return ans
}

// view is everything token's user reads of scope for query.
func view(t *testing.T, a *api, token, scope, query string) string {
	t.Helper()
	return viewAfter(t, a, token, scope, query, 0)
}

// viewAfter is view once the memory view includes revision rev (a turn's
// own, say: read-your-writes).
func viewAfter(t *testing.T, a *api, token, scope, query string, rev uint64) string {
	t.Helper()
	var v struct {
		Private []struct{ Value string } `json:"private"`
		Shared  []struct{ Value string } `json:"shared"`
	}
	if _, err := a.do(context.Background(), token, http.MethodPost, "/v1/memory/view",
		map[string]any{"agent": "scope-" + scope, "query": query, "k_user": 100, "k_cross": 100, "min_score": -1, "min_revision": rev}, &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range append(v.Private, v.Shared...) {
		b.WriteString(f.Value + "\n")
	}
	return b.String()
}

// A turn goes to the scope it names; only the scope's readers read it,
// and a question from outside the scope is answered no_memory without the
// detail, in the answer or in what the answer read.
func TestTurnScopeDecidesReaders(t *testing.T) {
	a, tok := org(t)
	ans := say(t, a, tok["ava"], "Heron budget is 84,000 EUR for the spring launch.")
	if len(ans.Decision.Scopes) != 1 || ans.Decision.Scopes[0] != "project_heron" || len(ans.Fragments) != 1 ||
		ans.Fragments[0].Agents[0] != "scope-project_heron" {
		t.Fatalf("turn written to %+v, want scope project_heron", ans)
	}
	say(t, a, tok["lucia"], "Osprey demo moves to June 2, 2026.")
	if got := view(t, a, tok["ava"], "project_heron", "Heron budget"); !strings.Contains(got, "84,000 EUR") {
		t.Errorf("the member does not read the project's turn: %q", got)
	}
	ctx := context.Background()
	for _, who := range []string{"lucia", "theo", "omar"} {
		q, err := a.ask(ctx, tok[who], "What is the Heron budget?")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(q.Answer, "84,000") || q.Outcome != "no_memory" {
			t.Errorf("%s asked the Heron budget: outcome %q, answer %q", who, q.Outcome, q.Answer)
		}
		for _, s := range q.Steps {
			if strings.Contains(s.Response, "84,000") {
				t.Errorf("%s: a step shows the budget: %q", who, s.Response)
			}
		}
	}
	q, err := a.ask(ctx, tok["ava"], "What is the Heron budget?")
	if err != nil {
		t.Fatal(err)
	}
	if q.Outcome != "answer" || !strings.Contains(q.Answer, "84,000 EUR") {
		t.Errorf("the member asked the Heron budget: outcome %q, answer %q", q.Outcome, q.Answer)
	}
}

// A deletion request is applied only with authority over the scope: the
// contractor's is recorded and ignored (this fails if the authority check
// is removed), the member's erases every fragment holding the value, and a
// later turn repeating it is stored with it redacted.
func TestSpokenErasureNeedsAuthority(t *testing.T) {
	a, tok := org(t)
	say(t, a, tok["ava"], "Heron staging passphrase is heron-blue-7731 for the dry run.")
	req := "Please delete the Heron staging passphrase heron-blue-7731 from memory."
	ans := say(t, a, tok["theo"], req)
	for _, g := range ans.Governance {
		if g.Applied {
			t.Fatalf("the contractor's deletion request was applied: %+v", ans.Governance)
		}
	}
	if len(ans.Governance) == 0 {
		t.Fatal("the contractor's deletion request was not recorded")
	}
	if got := view(t, a, tok["ava"], "project_heron", "Heron staging passphrase"); !strings.Contains(got, "heron-blue-7731") {
		t.Fatalf("an unauthorised request erased the passphrase: %q", got)
	}
	ans = say(t, a, tok["ava"], req)
	applied := false
	for _, g := range ans.Governance {
		applied = applied || (g.Applied && g.Scope == "project_heron" && len(g.Targets) >= 2)
	}
	if !applied {
		t.Fatalf("the member's deletion request: %+v", ans.Governance)
	}
	if strings.Contains(ans.Fragments[0].Value, "heron-blue-7731") {
		t.Errorf("the deletion request itself was stored with the value: %q", ans.Fragments[0].Value)
	}
	if got := view(t, a, tok["ava"], "project_heron", "Heron staging passphrase"); strings.Contains(got, "heron-blue-7731") {
		t.Errorf("the passphrase survived its erasure: %q", got)
	}
	later := say(t, a, tok["ava"], "Reminder: the old passphrase heron-blue-7731 is retired.")
	if strings.Contains(later.Fragments[0].Value, "heron-blue-7731") {
		t.Errorf("a later turn repeating the erased value was stored with it: %q", later.Fragments[0].Value)
	}
	q, err := a.ask(context.Background(), tok["ava"], "What was the old Heron staging passphrase?")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(q.Answer, "heron-blue-7731") {
		t.Errorf("the erased passphrase came back in an answer: %q", q.Answer)
	}
}

// Bad input is a clear 4xx: a malformed document, an unknown relationship
// type, an unregistered principal, an empty turn; never a 500.
func TestGovernanceBadInput(t *testing.T) {
	a, tok := org(t)
	ctx := context.Background()
	m, err := mapping("office")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, token, path string
		body              any
		want              error
	}{
		{"malformed", a.admin, "/v1/relationships", map[string]any{"schema": "nope"}, domain.ErrInvalid},
		{"unknown field", a.admin, "/v1/relationships", map[string]any{"schema": m, "relationships": []any{}, "extra": 1}, domain.ErrInvalid},
		{"unknown type", a.admin, "/v1/relationships", map[string]any{"schema": m, "relationships": []any{map[string]string{"type": "friend_of", "principal_id": "ava"}}}, domain.ErrInvalid},
		{"unknown principal", a.admin, "/v1/relationships", map[string]any{"schema": m, "relationships": []any{map[string]string{"type": "project_member", "project_id": "heron", "principal_id": "ghost"}}}, domain.ErrNotFound},
		{"not admin", tok["ava"], "/v1/relationships", map[string]any{"schema": m, "relationships": []any{}}, domain.ErrForbidden},
		{"empty turn", tok["ava"], "/v1/turns", map[string]string{"text": "  "}, domain.ErrInvalid},
		{"admin turn", a.admin, "/v1/turns", map[string]string{"text": "hello"}, domain.ErrForbidden},
	}
	for _, c := range cases {
		status, err := a.do(ctx, c.token, http.MethodPost, c.path, c.body, nil)
		if !errors.Is(err, c.want) || status >= 500 {
			t.Errorf("%s: status %d, %v; want %v", c.name, status, err, c.want)
		}
	}
}

// A text naming two projects needs both to be read (the narrower reading);
// a question is not remembered.
func TestTurnNamingTwoScopesNeedsBoth(t *testing.T) {
	a, tok := org(t)
	ans := say(t, a, tok["ava"], "Heron and Osprey share the vendor contract ref QX-5521.")
	if len(ans.Decision.Scopes) != 2 || len(ans.Fragments) != 1 || len(ans.Fragments[0].Agents) != 2 {
		t.Fatalf("a turn naming two projects: %+v", ans)
	}
	if got := view(t, a, tok["ava"], "project_heron", "vendor contract"); strings.Contains(got, "QX-5521") {
		t.Errorf("a member of one of the two projects reads the joint turn: %q", got)
	}
	if got := view(t, a, tok["lucia"], "project_osprey", "vendor contract"); strings.Contains(got, "QX-5521") {
		t.Errorf("a member of the other project reads the joint turn: %q", got)
	}
	q := say(t, a, tok["lucia"], "Is the Heron budget above 80,000 EUR? Who approved it?")
	if len(q.Fragments) != 0 {
		t.Errorf("a question was remembered: %+v", q)
	}
}
