package gatemem

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// DomainResult is one domain's run: where its predictions are, its
// timings, and the official scorer's figures when it ran.
type DomainResult struct {
	Domain      string
	Predictions string
	Stats       Stats
	Score       *Score
	ScoreErr    error             // why the scorer did not score, when it failed
	Answers     map[string]string // checkpoint id → answer text
}

// Run runs every domain of cfg and scores it.
func Run(ctx context.Context, cfg Config) ([]DomainResult, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var out []DomainResult
	for _, d := range cfg.Domains {
		res, err := runDomain(ctx, cfg, d)
		if err != nil {
			return out, fmt.Errorf("gatemem: %s: %w", d, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func runDomain(ctx context.Context, cfg Config, domain string) (DomainResult, error) {
	dir := filepath.Join(cfg.Data, domain)
	eps, err := readJSONL[Episode](filepath.Join(dir, "episodes.jsonl"))
	if err != nil {
		return DomainResult{}, err
	}
	cps, err := readJSONL[Checkpoint](filepath.Join(dir, "checkpoints.jsonl"))
	if err != nil {
		return DomainResult{}, err
	}
	byEp := map[string][]Checkpoint{}
	for _, c := range cps {
		byEp[c.EpisodeID] = append(byEp[c.EpisodeID], c)
	}
	if cfg.Episodes > 0 && len(eps) > cfg.Episodes {
		eps = eps[:cfg.Episodes]
	}
	res := DomainResult{Domain: domain, Answers: map[string]string{}}
	var preds []Prediction
	for i, ep := range eps {
		p, err := runEpisode(ctx, cfg, ep, byEp[ep.ID], &res.Stats)
		if err != nil {
			return res, err
		}
		preds = append(preds, p...)
		if cfg.Progress != nil {
			_, _ = fmt.Fprintf(cfg.Progress, "gatemem %s: episode %d/%d %s: %d turns, %d checkpoints\n", domain, i+1, len(eps), ep.ID, len(ep.Turns), len(p))
		}
	}
	for _, p := range preds {
		res.Answers[p.CheckpointID] = p.Answer
	}
	res.Predictions = filepath.Join(cfg.Out, domain, "predictions.jsonl")
	if err := writePredictions(res.Predictions, preds); err != nil {
		return res, err
	}
	// A scorer that cannot run leaves the predictions standing: the
	// report says why they were not scored.
	res.Score, res.ScoreErr = score(ctx, cfg, filepath.Join(cfg.ScoreData, domain), res.Predictions, filepath.Join(cfg.Out, domain, "score"))
	return res, nil
}

func writePredictions(path string, preds []Prediction) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, p := range preds {
		if err := enc.Encode(p); err != nil {
			_ = f.Close()
			return err
		}
	}
	return f.Close()
}
