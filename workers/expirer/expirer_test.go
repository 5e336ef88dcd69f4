package expirer_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/workers/expirer"
)

// fakeLog stores appends per subject and honours the condition like the
// stream leader does: the newest event on the subject must be last.
type fakeLog struct {
	newest map[string]uint64
	ids    map[string]uint64
	head   uint64
	fail   error
}

func (l *fakeLog) AppendAfter(_ context.Context, e events.Envelope, last uint64) (uint64, error) {
	if l.fail != nil {
		return 0, l.fail
	}
	if rev, dup := l.ids[e.ID]; dup {
		return rev, nil
	}
	if l.newest[e.Subject] != last {
		return 0, expirer.ErrSuperseded
	}
	l.head++
	l.ids[e.ID], l.newest[e.Subject] = l.head, l.head
	return l.head, nil
}

func grant(t *testing.T, g *access.Graph, l *fakeLog, user string, at time.Time, expires *time.Time) uint64 {
	t.Helper()
	p := &events.UserAgentGranted{User: user, Agent: "a", ExpiresAt: expires}
	e, err := events.New(events.Meta{Source: "test", Actor: "admin", Time: at}, p)
	if err != nil {
		t.Fatal(err)
	}
	l.head++
	l.newest[e.Subject] = l.head
	if err := g.Apply(events.Record{Envelope: e, Revision: l.head}); err != nil {
		t.Fatal(err)
	}
	return l.head
}

func TestOnceEndsDueGrantsOnlyAndOnlyOnce(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0.Add(time.Hour)
	g, l := access.NewGraph(), &fakeLog{newest: map[string]uint64{}, ids: map[string]uint64{}}
	past, later := t0.Add(30*time.Minute), t0.Add(2*time.Hour)
	due := grant(t, g, l, "u1", t0, &past)
	grant(t, g, l, "u2", t0, &later)
	grant(t, g, l, "u3", t0, nil)
	x, err := expirer.New(expirer.Config{Source: "test", Clock: func() time.Time { return now }}, g, l, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := x.Once(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("Once = %d, %v; want 1 expiry", n, err)
	}
	want := events.ExpiredEventID(events.UserAgentSubject("u1", "a"), due)
	if _, ok := l.ids[want]; !ok || len(l.ids) != 1 {
		t.Fatalf("appended %v, want only %s", l.ids, want)
	}
	// The projection has not applied it yet: a second pass appends nothing.
	if n, err := x.Once(context.Background()); err != nil || n != 0 {
		t.Fatalf("second Once = %d, %v", n, err)
	}
	// A second process, same grant: the derived id dedupes.
	y, _ := expirer.New(expirer.Config{Source: "other", Clock: func() time.Time { return now }}, g, l, nil)
	if _, err := y.Once(context.Background()); err != nil || len(l.ids) != 1 {
		t.Fatalf("second process: %v, %d events", err, len(l.ids))
	}
}

func TestSupersededGrantIsNotEnded(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g, l := access.NewGraph(), &fakeLog{newest: map[string]uint64{}, ids: map[string]uint64{}}
	soon := t0.Add(time.Minute)
	grant(t, g, l, "u", t0, &soon)
	// A renewal reached the log but not this projection yet.
	l.head++
	l.newest[events.UserAgentSubject("u", "a")] = l.head
	x, _ := expirer.New(expirer.Config{Source: "test", Clock: func() time.Time { return t0.Add(time.Hour) }}, g, l, nil)
	if n, err := x.Once(context.Background()); err != nil || n != 0 || len(l.ids) != 0 {
		t.Fatalf("Once over a renewed grant = %d, %v, %v", n, err, l.ids)
	}
}

func TestAppendFailureIsReportedAndRetried(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g, l := access.NewGraph(), &fakeLog{newest: map[string]uint64{}, ids: map[string]uint64{}}
	soon := t0.Add(time.Minute)
	grant(t, g, l, "u", t0, &soon)
	l.fail = errors.New("no quorum")
	x, _ := expirer.New(expirer.Config{Source: "test", Clock: func() time.Time { return t0.Add(time.Hour) }}, g, l, nil)
	if _, err := x.Once(context.Background()); err == nil {
		t.Fatal("a failed append must be reported")
	}
	l.fail = nil
	if n, err := x.Once(context.Background()); err != nil || n != 1 {
		t.Fatalf("retry = %d, %v", n, err)
	}
}

func TestConfigValidate(t *testing.T) {
	if _, err := expirer.New(expirer.Config{Poll: -1}, access.NewGraph(), &fakeLog{}, nil); err == nil {
		t.Fatal("empty Source and negative Poll accepted")
	}
}
