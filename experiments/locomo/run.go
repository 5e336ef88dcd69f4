package locomo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/experiments/embedded"
)

// runner is one run: its config, the API it drives and the id prefix
// that keeps its users and agents apart from earlier runs'.
type runner struct {
	cfg          Config
	api          *api
	run          string
	noObservedAt atomic.Bool
}

// Run loads the selected conversations into cmem, asks every question of
// the memory view, of BM25 and as a query, and returns the figures and
// every question's record (also written to Out as JSONL).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	started := time.Now()
	convs, err := Load(cfg.Data)
	if err != nil {
		return nil, err
	}
	sel, _ := selection(cfg.Conversations, len(convs))
	if len(sel) == 0 {
		return nil, fmt.Errorf("locomo: -conversations %q selects none of the %d conversations", cfg.Conversations, len(convs))
	}
	base, token, label := cfg.URL, cfg.Token, cfg.Label
	if base == "" {
		e, err := embedded.Start(ctx, embedded.Options{Source: "cmem/bench-locomo", ReadWait: 30 * time.Second, Weaviate: true})
		if err != nil {
			return nil, fmt.Errorf("locomo: start an embedded cmem: %w", err)
		}
		defer e.Close()
		base, token = e.BaseURL, e.Token
		if label == "" {
			label = embeddedLabel()
		}
	}
	if label == "" {
		label = "cmem at " + base
	}
	a, err := newAPI(base, token)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, api: a, run: embedded.RandomHex(3)}
	res := &Result{Label: label, K: cfg.K, Depths: r.depths(), Answers: !cfg.NoAnswers}
	for _, i := range sel {
		if err := r.conversation(ctx, i, convs[i], res); err != nil {
			return res, fmt.Errorf("locomo: conversation %d (%s): %w", i, convs[i].ID, err)
		}
	}
	res.ObservedAt = !r.noObservedAt.Load()
	res.Wall = time.Since(started)
	if cfg.Out != "" {
		if err := writeJSONL(cfg.Out, res.Records); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (r *runner) conversation(ctx context.Context, i int, c Conversation, res *Result) error {
	r.progress("conversation %d (%s): loading %d sessions", i, c.ID, len(c.Sessions))
	start := time.Now()
	l, err := r.load(ctx, i, c)
	if err != nil {
		return err
	}
	res.Load += time.Since(start)
	res.Conversations++
	res.Turns += len(l.values)
	recs := make([]Record, len(c.QA))
	for j, q := range c.QA {
		gold := q.Answer
		recs[j] = Record{Conversation: c.ID, Index: j, Question: q.Question, Category: q.Category,
			CategoryName: Categories[q.Category], Gold: gold, Adversarial: q.Adversarial, Evidence: q.Evidence}
	}
	r.progress("conversation %d (%s): %d turns in %.1f s; %d questions of the memory view", i, c.ID, len(l.values), time.Since(start).Seconds(), len(recs))
	// Every view is read before any query runs: a query may store its
	// answer in memory, which would then compete with the turns.
	if err := r.each(ctx, l, func(ctx context.Context, j int) error { return r.view(ctx, l, &recs[j]) }); err != nil {
		return err
	}
	if !r.cfg.NoAnswers {
		r.progress("conversation %d (%s): %d queries", i, c.ID, len(recs))
		if err := r.each(ctx, l, func(ctx context.Context, j int) error { return r.answer(ctx, l, &recs[j]) }); err != nil {
			return err
		}
	}
	res.Records = append(res.Records, recs...)
	return nil
}

func (r *runner) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		_, _ = fmt.Fprintf(r.cfg.Progress, "locomo: "+format+"\n", args...)
	}
}

func writeJSONL(path string, recs []Record) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("locomo: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			_ = f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
