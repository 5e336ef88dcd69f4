package gateway_test

import (
	"net/http"
	"testing"

	"github.com/cmem/cmem/node/nodetest"
)

// Relationships import as grants; a turn goes to the scope it names; bad
// input is a 4xx naming the problem.
func TestGovernanceContract(t *testing.T) {
	_, c := nodetest.StartClient(t, nil)
	ava := c.User("ava", "user")
	c.User("noah", "user")
	schema := map[string]any{"self": "record_{principal_id}", "types": map[string]any{
		"project_member": map[string]any{"subject": "principal_id", "scope": "project_{project_id}", "read": "full", "steward": true},
	}}
	r := c.Must(http.StatusOK, "POST", "/v1/relationships", admin, map[string]any{"schema": schema,
		"relationships": []any{map[string]string{"type": "project_member", "project_id": "maple", "principal_id": "ava"}},
		"principals":    []string{"noah"}})
	// ava: the project and its steward grant, her record and its steward
	// grant; noah: his record and its steward grant.
	if gs, _ := r.Body["grants"].([]any); len(gs) != 6 {
		t.Fatalf("grants %s", r.Raw)
	}
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/relationships", admin, map[string]any{"schema": schema,
		"relationships": []any{map[string]string{"type": "friend_of", "principal_id": "ava"}}}), "invalid", "unknown relationship type")
	wantError(t, c.Must(http.StatusNotFound, "POST", "/v1/relationships", admin, map[string]any{"schema": schema,
		"relationships": []any{map[string]string{"type": "project_member", "project_id": "maple", "principal_id": "ghost"}}}), "not_found", "ghost")
	wantError(t, c.Must(http.StatusForbidden, "POST", "/v1/relationships", ava, map[string]any{"schema": schema, "relationships": []any{}}), "forbidden", "admin")

	r = c.Must(http.StatusCreated, "POST", "/v1/turns", ava, map[string]string{"text": "Maple budget is 221,000 USD."})
	d, _ := r.Body["decision"].(map[string]any)
	if sc, _ := d["scopes"].([]any); len(sc) != 1 || sc[0] != "project_maple" {
		t.Fatalf("turn %s", r.Raw)
	}
	wantError(t, c.Must(http.StatusBadRequest, "POST", "/v1/turns", ava, map[string]string{"text": ""}), "invalid", "empty")
}
