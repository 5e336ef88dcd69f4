package eventlog_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// writer runs a lease and records, while it holds it, when its fence last
// passed and when it first held it.
type writer struct {
	mu            sync.Mutex
	first, passed time.Time
	holding       bool
}

func (w *writer) run(ctx context.Context, ls *eventlog.Lease) {
	ls.Run(ctx, func(ctx context.Context) {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if ls.Check(ctx) == nil {
				w.mu.Lock()
				if w.first.IsZero() {
					w.first = time.Now()
				}
				w.passed, w.holding = time.Now(), true
				w.mu.Unlock()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
}

func (w *writer) state() (first, passed time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first, w.passed
}

// One holder at a time; when the holder dies (its connection gone, no
// release), the other takes over within a few TTLs, and the dead holder's
// fence refused before the new holder's first passed.
func TestLeaseHasOneHolderAndIsTakenOverWhenItDies(t *testing.T) {
	const ttl = 2 * time.Second
	l := logtest.Open(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// a: its own connection to the server, which the test cuts.
	la, err := eventlog.Open(ctx, eventlog.Config{URL: l.ConnectURL()}, logtest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	a, err := la.Lease(ctx, "store", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Lease(ctx, "store", "b", ttl)
	if err != nil {
		t.Fatal(err)
	}
	var wa, wb writer
	go wa.run(ctx, a)
	waitFor(t, 10*time.Second, "a holds the lease", func() bool { f, _ := wa.state(); return !f.IsZero() })
	go wb.run(ctx, b)
	// b tries every TTL/4: over two TTLs it must never hold it.
	for end := time.Now().Add(2 * ttl); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if b.Held() || b.Check(ctx) == nil {
			t.Fatal("b holds the lease while a renews it")
		}
	}
	la.Close() // a dies: no renewal, no release
	died := time.Now()
	waitFor(t, 5*ttl, "b takes over", func() bool { f, _ := wb.state(); return !f.IsZero() })
	bFirst, _ := wb.state()
	_, aLast := wa.state()
	t.Logf("b took over %s after a died; a's fence last passed %s before b's first", bFirst.Sub(died).Round(time.Millisecond), bFirst.Sub(aLast).Round(time.Millisecond))
	if !aLast.Before(bFirst) {
		t.Errorf("a's fence passed at %s, after b's first at %s: two writers", aLast, bFirst)
	}
	if a.Held() {
		t.Error("a still thinks it holds the lease after its connection died")
	}
}

// A holder that stops releases the lease: another takes it at its next
// try (every TTL/4), long before the key would have expired.
func TestLeaseReleasedOnStop(t *testing.T) {
	const ttl = 10 * time.Second
	l := logtest.Open(t, "")
	ctx := context.Background()
	a, err := l.Lease(ctx, "store", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Lease(ctx, "store", "b", ttl)
	if err != nil {
		t.Fatal(err)
	}
	actx, stop := context.WithCancel(ctx)
	var wa, wb writer
	done := make(chan struct{})
	go func() { wa.run(actx, a); close(done) }()
	waitFor(t, 10*time.Second, "a holds the lease", func() bool { f, _ := wa.state(); return !f.IsZero() })
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go wb.run(bctx, b)
	stop()
	<-done
	stopped := time.Now()
	waitFor(t, ttl/2, "b takes over before a's key could have expired", func() bool { f, _ := wb.state(); return !f.IsZero() })
	f, _ := wb.state()
	t.Logf("b took over %s after a stopped", f.Sub(stopped).Round(time.Millisecond))
}

func waitFor(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A holder that died and comes back under the same name (a process
// restarted on its data) takes its lease back at once, before the key
// expires; another name still waits.
func TestLeaseTakenBackByItsRestartedHolder(t *testing.T) {
	const ttl = 20 * time.Second
	l := logtest.Open(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	la, err := eventlog.Open(ctx, eventlog.Config{URL: l.ConnectURL()}, logtest.Logger())
	if err != nil {
		t.Fatal(err)
	}
	a, err := la.Lease(ctx, "store", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	var wa, wb, wa2 writer
	go wa.run(ctx, a)
	waitFor(t, 10*time.Second, "a holds the lease", func() bool { f, _ := wa.state(); return !f.IsZero() })
	la.Close() // a dies: no release
	b, err := l.Lease(ctx, "store", "b", ttl)
	if err != nil {
		t.Fatal(err)
	}
	go wb.run(ctx, b)
	a2, err := l.Lease(ctx, "store", "a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	go wa2.run(ctx, a2)
	waitFor(t, ttl/2, "a, restarted, takes its lease back before it expires", func() bool { f, _ := wa2.state(); return !f.IsZero() })
	t.Logf("a took its lease back %s after it restarted", time.Since(back).Round(time.Millisecond))
	if f, _ := wb.state(); !f.IsZero() {
		t.Error("b held the lease of a holder that came back")
	}
}
