package workers_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/query"
	"github.com/cmem/cmem/workers"
)

// captureLog is a hand-written Log that keeps what is appended.
type captureLog struct {
	mu  sync.Mutex
	got []events.Envelope
}

func (l *captureLog) Append(_ context.Context, e events.Envelope, _ bool) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, e)
	return uint64(len(l.got)), nil
}

func (l *captureLog) envelopes() []events.Envelope {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]events.Envelope(nil), l.got...)
}

func TestSweepEndsStaleQueriesOnce(t *testing.T) {
	qs := query.NewProjection()
	submit := func(rev uint64, id string, at time.Time) {
		e, err := events.New(events.Meta{Source: "t", Actor: "u", Time: at}, &events.QuerySubmitted{ID: id, User: "u", Text: "q", Channel: "http"})
		if err != nil {
			t.Fatal(err)
		}
		if err := qs.Apply(events.Record{Envelope: e, Revision: rev}); err != nil {
			t.Fatal(err)
		}
	}
	submit(1, "stale", time.Now().Add(-time.Hour))
	submit(2, "fresh", time.Now().Add(time.Hour))
	log := &captureLog{}
	p, err := workers.NewPipeline(workers.Config{StageTimeout: 50 * time.Millisecond, QueryTimeout: 100 * time.Millisecond},
		workers.Deps{Log: log, Queries: qs})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
	defer cancel()
	p.Sweep(ctx) // two ticks: the stale query is failed on each, with one id
	got := log.envelopes()
	if len(got) < 2 {
		t.Fatalf("%d events after two sweeps, want the stale query failed on each", len(got))
	}
	for _, e := range got {
		pl, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		f, ok := pl.(*events.QueryFailed)
		if !ok || f.QueryID != "stale" || f.Stage != "timeout" || e.ID != got[0].ID || e.CorrelationID != "stale" {
			t.Fatalf("sweep emitted %+v (%T)", e, pl)
		}
	}
}
