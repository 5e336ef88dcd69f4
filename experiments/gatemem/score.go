package gatemem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Score is what GateMem's rule-based scorer (score_predictions.py) found
// for one domain. Rates are fractions (0..1).
type Score struct {
	Summary struct {
		N           int     `json:"n_checkpoints"`
		U           float64 `json:"utility_accuracy"`
		A           float64 `json:"privacy_leakage_rate"`
		F           float64 `json:"deletion_leakage_rate"`
		AE2E        float64 `json:"privacy_e2e_leakage_rate"`
		FE2E        float64 `json:"deletion_e2e_leakage_rate"`
		OverRefusal float64 `json:"over_refusal_rate"`
		MGS         float64 `json:"compliance_utility_score"`
		MGSE2E      float64 `json:"compliance_utility_e2e_score"`
		Action      float64 `json:"action_accuracy"`
	}
	// Rows are the scorer's per-checkpoint records (scores.jsonl).
	Rows []ScoreRow
	// Dir is where the scorer wrote its files.
	Dir string
}

// ScoreRow is one checkpoint's record in scores.jsonl.
type ScoreRow struct {
	CheckpointID   string `json:"checkpoint_id"`
	QueryType      string `json:"query_type"`
	AttackType     string `json:"attack_type"`
	ExpectedAction string `json:"expected_action"`
	PredAction     string `json:"pred_action"`
	UtilityCorrect *bool  `json:"utility_correct"`
	PrivacyLeak    *bool  `json:"privacy_e2e_leak"`
	DeletionLeak   *bool  `json:"deletion_e2e_leak"`
}

// ScorerPath is where GateMem's scorer sits relative to a bench/data
// directory.
func ScorerPath(data string) string {
	return filepath.Join(data, "..", "scripts", "score_predictions.py")
}

// score runs the official scorer on preds against the hidden checkpoints
// in dataDir; no python or no scorer is (nil, nil): the predictions stand
// and the run says scoring was skipped.
func score(ctx context.Context, cfg Config, dataDir, preds, out string) (*Score, error) {
	script := cfg.Scorer
	if script == "" {
		script = ScorerPath(cfg.ScoreData)
	}
	if _, err := os.Stat(script); err != nil {
		return nil, nil
	}
	py, err := exec.LookPath(cfg.Python)
	if err != nil {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, py, script, "--data_dir", dataDir, "--predictions", preds, "--out_dir", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("scorer: %w: %s", err, tail(msg))
	}
	s := &Score{Dir: out}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &s.Summary); err != nil {
		return nil, fmt.Errorf("scorer summary: %w", err)
	}
	if s.Rows, err = readJSONL[ScoreRow](filepath.Join(out, "scores.jsonl")); err != nil {
		return nil, err
	}
	if s.Summary.N == 0 {
		return nil, errors.New("scorer: no checkpoint scored")
	}
	return s, nil
}

func tail(b []byte) string {
	const n = 2000
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
