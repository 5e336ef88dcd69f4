package e2e_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// The learned retriever is a projection of the log: a node restarted on
// the same log rebuilds the very model the live one learned, also after a
// fragment it learned from was deleted and its key destroyed (the replay
// never sees its content).
func TestRerankModelIsRebuiltFromTheLog(t *testing.T) {
	dir := t.TempDir()
	cfg := func(c *node.Config) { c.DataDir = dir }
	n, c := nodetest.StartClient(t, cfg)
	alice := c.User("alice", "user")
	c.Must(http.StatusCreated, "POST", "/v1/agents", admin, map[string]string{"id": "a", "description": "a"})
	grantAgent(c, "alice", "a")
	shared := func(key, value string) string {
		r := c.Must(http.StatusCreated, "POST", "/v1/fragments", alice, map[string]any{"agent": "a", "key": key, "value": value, "tier": "shared"})
		return r.Body["fragments"].([]any)[0].(map[string]any)["id"].(string)
	}
	relevant := shared("Lyon dining", "bouchons serve quenelles and andouillette")
	other := shared("Lyon markets", "the Halles sell quenelles and cheese")
	lookAlike := shared("where to eat in Lyon tonight", "anyone have tips?")
	c.Must(http.StatusCreated, "POST", "/v1/policies", admin, map[string]any{"target": "write_shared", "kind": "admission",
		"config": map[string]any{"threshold": 0, "rubrics": []map[string]any{{"name": "useful", "description": "useful", "min": 0, "max": 10}}}})
	shared("where to eat in Lyon", "try the bouchons for quenelles")
	shared("Lyon food", "quenelles and andouillette in a bouchon")
	last := c.Must(http.StatusOK, "DELETE", "/v1/fragments/"+other, alice, nil).Revision()
	if err := n.Runner.WaitFor(t.Context(), last); err != nil {
		t.Fatal(err)
	}
	if n.Rerank.Lessons() != 2 {
		t.Fatalf("the node learned %d lessons from 2 admitted memories", n.Rerank.Lessons())
	}
	digest := n.Rerank.Digest()
	// Over HTTP, the view puts the answer before the look-alike that is
	// more similar to the question.
	v := c.Must(http.StatusOK, "POST", "/v1/memory/view", alice, map[string]any{"agent": "a", "query": "where to eat in Lyon?", "k_cross": 5})
	score := map[string]float64{}
	var order []string
	for _, f := range v.Body["shared"].([]any) {
		f := f.(map[string]any)
		order, score[f["id"].(string)] = append(order, f["id"].(string)), f["score"].(float64)
	}
	if !(score[relevant] < score[lookAlike]) || slices.Index(order, relevant) < 0 || slices.Index(order, relevant) > slices.Index(order, lookAlike) {
		t.Fatalf("want the less similar answer re-ranked before the look-alike: %s", v.Raw)
	}
	n.Close()

	n = nodetest.Start(t, cfg)
	if got := n.Rerank.Digest(); got != digest {
		t.Fatalf("the model rebuilt from the log differs from the live one (%d lessons)", n.Rerank.Lessons())
	}
	// Off by configuration: no model, views by similarity.
	n.Close()
	n = nodetest.Start(t, func(c *node.Config) { c.DataDir, c.NoRerank = dir, true })
	if n.Rerank != nil {
		t.Fatal("CMEM_RERANK=off still built a model")
	}
}
