package gateway_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// The event size limit applies to what is stored. In clear, a value of
// 256 KiB of '<' escapes to 1.5 MiB and is refused with 413; sealed (the
// default) it is stored as base64 of its bytes, fits, and reads back whole.
func TestEventLimitInClearAndSealed(t *testing.T) {
	value := strings.Repeat("<", 256<<10)
	body := map[string]any{"agent": "planner", "resources": []string{}, "key": "travel budget", "value": value, "tier": "private"}

	_, cc := nodetest.StartClient(t, func(c *node.Config) { c.Plaintext = true })
	wantError(t, cc.Must(http.StatusRequestEntityTooLarge, "POST", "/v1/fragments", writer(t, cc), body), "too_large", "the limit is")

	_, sc := nodetest.StartClient(t, nil)
	alice := writer(t, sc)
	w := sc.Must(http.StatusCreated, "POST", "/v1/fragments", alice, body)
	r := sc.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "planner", "query": "travel budget", "k_user": 1, "k_cross": 0,
		"min_revision": w.Revision()})
	got, _ := r.Body["private"].([]any)
	if len(got) != 1 || got[0].(map[string]any)["value"] != value {
		t.Fatalf("the sealed value did not read back whole (%d fragments): %.300s", len(got), r.Raw)
	}
}
