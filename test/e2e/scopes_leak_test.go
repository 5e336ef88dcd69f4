package e2e_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"testing"
)

// Scope markers: "zqs" + the project + a number, said in a turn that
// names the project, so the turn is written into that project's scope.
var scopeMarker = regexp.MustCompile(`zqs(pa|pb)[0-9]+`)

// The copying model against governed conversation: relationships imported
// as grants, turns written into the scopes they name (by members and by
// outsiders), churn on the imported grants through the normal grant
// commands, and a spoken erasure. Every answer, step and memory view a user
// gets holds only markers of the projects that user may read at that
// moment, and the erased marker never comes back — and the probe sees a
// leak when an outsider is made a member, so it can fail.
func TestCopyingModelLeaksNothingThroughScopes(t *testing.T) {
	_, c, tokens := leakNode(t, copycat)
	schema := map[string]any{"self": "record_{principal_id}", "types": map[string]any{
		"project_member": map[string]any{"subject": "principal_id", "scope": "project_{project_id}", "read": "full", "steward": true},
	}}
	c.Must(http.StatusOK, "POST", "/v1/relationships", admin, map[string]any{"schema": schema, "relationships": []any{
		map[string]string{"type": "project_member", "project_id": "pa", "principal_id": "u0"},
		map[string]string{"type": "project_member", "project_id": "pb", "principal_id": "u1"},
	}, "principals": []string{"u2"}})
	member := map[[2]string]bool{{"u0", "pa"}: true, {"u1", "pb"}: true}
	users := []string{"u0", "u1", "u2"}
	erased := map[string]bool{}
	checked := 0
	var leaks []string
	check := func(where, u, text string) {
		for _, m := range scopeMarker.FindAllStringSubmatch(text, -1) {
			checked++
			if !member[[2]string{u, m[1]}] || erased[m[0]] {
				leaks = append(leaks, fmt.Sprintf("%s to %s: %s", where, u, m[0]))
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 9))
	n := 0
	for round := range 10 {
		// Everyone speaks about a random project, members or not.
		for _, u := range users {
			p := []string{"pa", "pb"}[rng.IntN(2)]
			n++
			c.Must(http.StatusCreated, "POST", "/v1/turns", tokens[u], map[string]string{"text": fmt.Sprintf("%s facts zqs%s%d", p, p, n)})
		}
		if round == 5 { // the steward of pa erases the first pa marker said
			for i := 1; i <= n; i++ {
				m := fmt.Sprintf("zqspa%d", i)
				r := c.Must(http.StatusCreated, "POST", "/v1/turns", tokens["u0"], map[string]string{"text": "Please delete pa facts " + m + " from memory."})
				if slices.ContainsFunc(r.Body["governance"].([]any), func(g any) bool { return g.(map[string]any)["applied"] == true }) {
					erased[m] = true
					break
				}
			}
		}
		for _, u := range users {
			r := c.Must(http.StatusOK, "POST", "/v1/queries", tokens[u], map[string]any{"text": "pa pb facts please"})
			check("answer", u, string(r.Raw))
			for _, p := range []string{"pa", "pb"} {
				if member[[2]string{u, p}] {
					v := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens[u], map[string]any{"agent": "scope-project_" + p, "query": "facts", "k_user": 100, "k_cross": 100})
					check("memory view of "+p, u, string(v.Raw))
				}
			}
		}
		// Churn on the imported grants, through the normal grant commands.
		u, p := users[rng.IntN(3)], []string{"pa", "pb"}[rng.IntN(2)]
		on := !member[[2]string{u, p}]
		c.Must(http.StatusOK, map[bool]string{true: "PUT", false: "DELETE"}[on], "/v1/grants/user-agent/"+u+"/scope-project_"+p, admin, nil)
		member[[2]string{u, p}] = on
	}
	t.Logf("%d markers checked, %d leaks, erased %v", checked, len(leaks), erased)
	if checked < 30 {
		t.Fatalf("only %d markers reached users: the probe exercised too little", checked)
	}
	if len(erased) == 0 {
		t.Fatal("the steward's erasure was not applied")
	}
	if len(leaks) > 0 {
		t.Fatalf("%d leaks, e.g. %v", len(leaks), leaks[:min(5, len(leaks))])
	}
	// The probe can see a leak: grant u2 pb behind the model's back and
	// u2's view holds pb markers the check does not expect.
	c.Must(http.StatusOK, "PUT", "/v1/grants/user-agent/u2/scope-project_pb", admin, nil)
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", tokens["u2"], map[string]any{"agent": "scope-project_pb", "query": "facts", "k_user": 100, "k_cross": 100})
	member[[2]string{"u2", "pb"}] = false
	before := len(leaks)
	check("probe", "u2", string(v.Raw))
	if len(leaks) == before {
		t.Fatal("the probe saw no leak where one was planted: it cannot see leaks")
	}
}
