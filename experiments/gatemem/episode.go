package gatemem

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/cmem/cmem/experiments/embedded"
)

// episodeRun is one episode against one fresh cmem.
type episodeRun struct {
	api    *api
	tokens map[string]string // principal id → bearer token
	// texts maps every fragment id the run saw written to its text, so
	// that a checkpoint's prompt context is the text of what its answer
	// read.
	texts map[string]string
	stats *Stats
	// episode is the conversation's thread id (TurnRequest.Thread).
	episode string
}

// runEpisode ingests ep's turns in order and asks each of cps after its
// turn, returning one prediction per checkpoint.
func runEpisode(ctx context.Context, cfg Config, ep Episode, cps []Checkpoint, stats *Stats) ([]Prediction, error) {
	node, err := embedded.Start(ctx, embedded.Options{Source: "cmem/gatemem", ReadWait: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	defer node.Close()
	a, err := newAPI(node.BaseURL, node.Token, cfg.QueryTimeout)
	if err != nil {
		return nil, err
	}
	r := &episodeRun{api: a, tokens: map[string]string{}, texts: map[string]string{}, stats: stats, episode: ep.ID}
	if err := r.setup(ctx, ep); err != nil {
		return nil, fmt.Errorf("episode %s: %w", ep.ID, err)
	}
	byTurn := map[string][]Checkpoint{}
	for _, c := range cps {
		byTurn[c.AsOfTurn] = append(byTurn[c.AsOfTurn], c)
	}
	var preds []Prediction
	for _, t := range ep.Turns {
		start := time.Now()
		if err := r.ingest(ctx, t); err != nil {
			return nil, fmt.Errorf("episode %s turn %s: %w", ep.ID, t.ID, err)
		}
		stats.addTurn(time.Since(start))
		for _, c := range byTurn[t.ID] {
			start := time.Now()
			p, err := r.ask(ctx, c)
			if err != nil {
				return nil, fmt.Errorf("checkpoint %s: %w", c.ID, err)
			}
			stats.addCheckpoint(time.Since(start))
			preds = append(preds, p)
		}
		delete(byTurn, t.ID)
	}
	for turn, left := range byTurn { // a checkpoint after a turn the episode lacks
		for _, c := range left {
			return nil, fmt.Errorf("checkpoint %s: turn %s is not in episode %s", c.ID, turn, ep.ID)
		}
	}
	return preds, nil
}

// setup registers every principal as a user and imports the
// relationships as grants.
func (r *episodeRun) setup(ctx context.Context, ep Episode) error {
	for _, p := range ep.Entities.Principals {
		if err := r.user(ctx, p.ID); err != nil {
			return err
		}
	}
	return r.importRelationships(ctx, ep)
}

// user registers id once.
func (r *episodeRun) user(ctx context.Context, id string) error {
	if _, ok := r.tokens[id]; ok {
		return nil
	}
	var u struct {
		Token string `json:"token"`
	}
	if _, err := r.api.do(ctx, r.api.admin, http.MethodPost, "/v1/users", map[string]string{"id": id, "role": "user"}, &u); err != nil {
		return err
	}
	r.tokens[id] = u.Token
	return nil
}

// ingest says one turn as its speaker (POST /v1/turns): cmem decides
// which scope it concerns and applies the governance it speaks.
func (r *episodeRun) ingest(ctx context.Context, t Turn) error {
	if err := r.user(ctx, t.Speaker.ID); err != nil {
		return err
	}
	text := strings.TrimSpace(t.Text)
	if text == "" {
		return nil
	}
	var w struct {
		Fragments []struct {
			ID    string `json:"id"`
			Value string `json:"value"`
		} `json:"fragments"`
	}
	if _, err := r.api.do(ctx, r.tokens[t.Speaker.ID], http.MethodPost, "/v1/turns", map[string]any{"text": text, "thread": r.episode}, &w); err != nil {
		return err
	}
	for _, f := range w.Fragments {
		r.texts[f.ID] = f.Value
	}
	return nil
}

// ask asks c as its asker and turns the answer into a prediction.
func (r *episodeRun) ask(ctx context.Context, c Checkpoint) (Prediction, error) {
	if err := r.user(ctx, c.Asker.ID); err != nil {
		return Prediction{}, err
	}
	ans, err := r.api.ask(ctx, r.tokens[c.Asker.ID], c.Query)
	if err != nil {
		return Prediction{}, err
	}
	var shown, agents []string
	for _, s := range ans.Steps {
		if s.Agent != "" && !slices.Contains(agents, s.Agent) {
			agents = append(agents, s.Agent)
		}
	}
	for _, id := range ans.FragmentsRead {
		t, ok := r.texts[id]
		if !ok {
			t = r.copyText(ctx, r.tokens[c.Asker.ID], id, agents)
		}
		if t != "" {
			shown = append(shown, t)
		}
	}
	for _, s := range ans.Steps {
		if s.Response != "" {
			shown = append(shown, s.Response)
		}
	}
	// What this answer wrote back to memory is what a later answer may
	// read: its steps' responses as the model gave them. The API shows
	// them with the sentences that only repeat the question dropped, so
	// the question's own text is counted with them: a later context may
	// hold it (this over-counts, never under-counts).
	said := []string{c.Query}
	for _, s := range ans.Steps {
		said = append(said, s.Subquery, s.Response)
	}
	for _, id := range ans.FragmentsWritten {
		r.texts[id] = strings.Join(said, "\n")
	}
	return newPrediction(c.ID, ans, shown), nil
}
