package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
)

func TestFailStaleEndsStaleQueriesOnce(t *testing.T) {
	r := newRig(t, nil)
	submit := func(id string, at time.Time) {
		e, err := events.New(events.Meta{Source: "t", Actor: "u", Time: at}, &events.QuerySubmitted{ID: id, User: "u", Text: "q", Channel: "http"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.log.Append(context.Background(), e, false); err != nil {
			t.Fatal(err)
		}
	}
	submit("stale", time.Now().Add(-time.Hour))
	submit("fresh", time.Now().Add(time.Hour))
	p := r.pipeline(t, app.PipelineConfig{StageTimeout: 50 * time.Millisecond, QueryTimeout: 100 * time.Millisecond})
	p.FailStale(context.Background())
	p.FailStale(context.Background()) // the query ended: a second sweep finds nothing
	got := r.log.envelopes()[2:]
	if len(got) != 1 {
		t.Fatalf("%d events after two sweeps, want the stale query failed once", len(got))
	}
	pl, err := got[0].Decode()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := pl.(*events.QueryFailed)
	if !ok || f.QueryID != "stale" || f.Stage != "timeout" || got[0].CorrelationID != "stale" {
		t.Fatalf("sweep emitted %+v (%T)", got[0], pl)
	}
}
