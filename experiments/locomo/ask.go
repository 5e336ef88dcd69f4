package locomo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
)

// depths are the recall depths reported: 5, 10 and K.
func (r *runner) depths() []int {
	d := []int{5, 10}
	if r.cfg.K != 5 && r.cfg.K != 10 {
		d = append(d, r.cfg.K)
	}
	return d
}

// each runs f on every question index of l with Workers at once; the
// first error stops the rest.
func (r *runner) each(ctx context.Context, l *loaded, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range r.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(ctx, i); err != nil {
					cancel(err)
				}
			}
		}()
	}
	for i := range l.conv.QA {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return context.Cause(ctx)
}

// view asks question i of the memory view and of BM25 and fills its
// record's hits and recall.
func (r *runner) view(ctx context.Context, l *loaded, rec *Record) error {
	depth := max(r.cfg.K, 10)
	start := time.Now()
	v, err := r.api.view(ctx, l.reader, httpclient.ViewRequest{Agent: l.agent, Query: rec.Question, KCross: depth, MinRevision: l.rev})
	if err != nil {
		return fmt.Errorf("view %q: %w", rec.Question, err)
	}
	rec.ViewMS = float64(time.Since(start).Microseconds()) / 1000
	var ranked []string
	for _, f := range append(v.Shared, v.Private...) {
		rec.Hits = append(rec.Hits, Hit{Fragment: f.ID, DiaID: l.dia[f.ID], Score: f.Score, Value: f.Value, ObservedAt: f.ObservedAt})
		ranked = append(ranked, l.dia[f.ID])
	}
	rec.BM25 = l.lex.Search(rec.Question, depth)
	if len(rec.Evidence) > 0 {
		rec.Recall = map[string]float64{}
		for _, k := range r.depths() {
			rec.Recall[fmt.Sprintf("cmem@%d", k)] = Recall(rec.Evidence, ranked, k)
			rec.Recall[fmt.Sprintf("bm25@%d", k)] = Recall(rec.Evidence, rec.BM25, k)
		}
	}
	return nil
}

// answer asks question i as a query and scores the answer.
func (r *runner) answer(ctx context.Context, l *loaded, rec *Record) error {
	start := time.Now()
	ans, err := r.api.ask(ctx, l.reader, rec.Question)
	if err != nil {
		return fmt.Errorf("query %q: %w", rec.Question, err)
	}
	rec.AnswerMS = float64(time.Since(start).Microseconds()) / 1000
	rec.Answer, rec.Status, rec.Error = ans.Answer, ans.Status, ans.Error
	for _, id := range ans.FragmentsRead {
		rec.Cited = append(rec.Cited, l.dia[id])
	}
	for _, s := range ans.Steps {
		rec.ResourceCalls += len(s.ResourceCalls)
	}
	rec.F1, _ = Score(rec.Category, rec.Answer, rec.Gold)
	return nil
}
