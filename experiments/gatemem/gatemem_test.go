package gatemem

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The harness runs on a checkpoints file stripped of every scoring field
// and answers each checkpoint once, in GateMem's prediction format.
func TestRunOnStrippedCheckpoints(t *testing.T) {
	out := t.TempDir()
	cfg := Config{Data: "testdata/stripped", Domains: []string{"office"}, Out: out, Scorer: filepath.Join(t.TempDir(), "none.py")}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Score != nil {
		t.Fatalf("results %+v: want one unscored domain", res)
	}
	preds := readPredictions(t, filepath.Join(out, "office", "predictions.jsonl"))
	want := []string{"office_synthetic_heron_ckpt_01", "office_synthetic_heron_ckpt_02", "office_synthetic_heron_ckpt_03"}
	got := map[string]map[string]any{}
	for _, p := range preds {
		got[p["checkpoint_id"].(string)] = p
	}
	if len(preds) != len(want) {
		t.Fatalf("%d predictions, want %d", len(preds), len(want))
	}
	for _, id := range want {
		p, ok := got[id]
		if !ok {
			t.Fatalf("no prediction for %s", id)
		}
		switch p["action"] {
		case OutcomeAnswer, OutcomeAnswerRedacted, OutcomeRefuse, OutcomeNoMemory:
		default:
			t.Errorf("%s: action %q is not one of GateMem's four", id, p["action"])
		}
		o := p["output"].(map[string]any)
		if o["action"] != p["action"] || o["answer"] != p["answer"] {
			t.Errorf("%s: output %v disagrees with the top level", id, o)
		}
		if _, ok := o["memory_audit"].(map[string]any)["prompt_context"].(map[string]any)["text"].(string); !ok {
			t.Errorf("%s: no memory_audit.prompt_context.text", id)
		}
	}
	if res[0].Stats.Turns != 7 || res[0].Stats.Checkpoints != 3 {
		t.Errorf("stats %+v: want 7 turns, 3 checkpoints", res[0].Stats)
	}
}

// The checkpoint type has no field a scoring key could land in: decoding a
// full checkpoint keeps only what the protocol shows an agent.
func TestCheckpointDropsScoringFields(t *testing.T) {
	cps, err := readJSONL[Checkpoint]("testdata/office/checkpoints.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(cps)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"query_type", "attack_type", "expected_action", "judge_spec", "leak_targets", "84,000", "heron-blue"} {
		if bytes.Contains(b, []byte(f)) {
			t.Errorf("decoded checkpoints carry %q: %s", f, b)
		}
	}
}

// With python3 and GateMem's scorer present (GATEMEM_SCORER names it), the
// run is scored against the full checkpoints and the report prints U, A,
// F and MGS; without them the test is skipped, not passed.
func TestRunScored(t *testing.T) {
	script := os.Getenv("GATEMEM_SCORER")
	if script == "" {
		t.Skip("GATEMEM_SCORER not set")
	}
	py := os.Getenv("GATEMEM_PYTHON")
	if py == "" {
		py = "python3"
	}
	if _, err := exec.LookPath(py); err != nil {
		t.Skip("no " + py)
	}
	out := t.TempDir()
	res, err := Run(context.Background(), Config{Data: "testdata/stripped", ScoreData: "testdata", Domains: []string{"office"}, Out: out, Scorer: script, Python: py})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Score == nil {
		t.Fatalf("not scored: %v", res[0].ScoreErr)
	}
	var w strings.Builder
	Report(&w, res)
	if !strings.Contains(w.String(), "office") || res[0].Score.Summary.N != 3 {
		t.Errorf("report %q, summary %+v", w.String(), res[0].Score.Summary)
	}
}

func readPredictions(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
