package gatemem

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The general leak classes on a synthetic home of our own, in GateMem's
// format (testdata/leaks; written for this test, not taken from any
// benchmark episode): a guest, a cleaner (a contractor), a family member
// with a summary read, a scheduling-only delegate, door and alarm codes in
// the shared household and a PIN in a resident's own record, a spoken
// deletion of a retired code. Each checkpoint's leak targets must be
// absent from the answer and from the context shown, as GateMem's
// rule-based scorer counts them; the residents' own questions must still
// be answered.
func TestSyntheticLeakClasses(t *testing.T) {
	out := t.TempDir()
	if _, err := Run(context.Background(), Config{Data: "testdata/leaks", Domains: []string{"household"}, Out: out, Scorer: filepath.Join(t.TempDir(), "none.py")}); err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]any{}
	for _, p := range readPredictions(t, filepath.Join(out, "household", "predictions.jsonl")) {
		got[p["checkpoint_id"].(string)] = p
	}
	b, err := os.ReadFile("testdata/leaks/household/checkpoints.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c struct {
			ID    string `json:"checkpoint_id"`
			Query string `json:"query_text"`
			Spec  struct {
				Include    []string `json:"include"`
				NotInclude []string `json:"not_include"`
			} `json:"judge_spec"`
		}
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		p, ok := got[c.ID]
		if !ok {
			t.Fatalf("no prediction for %s", c.ID)
		}
		answer, _ := p["answer"].(string)
		shown := answer + " " + contextText(p)
		for _, leak := range c.Spec.NotInclude {
			if strings.Contains(strings.ToLower(shown), strings.ToLower(leak)) {
				t.Errorf("%s (%q): %q reached the asker: answer %q", c.ID, c.Query, leak, answer)
			}
		}
		for _, want := range c.Spec.Include {
			if !strings.Contains(strings.ToLower(answer), strings.ToLower(want)) {
				t.Errorf("%s (%q): the answer %q lacks %q", c.ID, c.Query, answer, want)
			}
		}
	}
}

// contextText is the memory text a prediction says was shown.
func contextText(p map[string]any) string {
	o, _ := p["output"].(map[string]any)
	m, _ := o["memory_audit"].(map[string]any)
	c, _ := m["prompt_context"].(map[string]any)
	s, _ := c["text"].(string)
	return s
}
