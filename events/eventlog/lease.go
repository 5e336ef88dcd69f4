package eventlog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// LeaseBucket is the KV bucket of the single-writer leases.
const LeaseBucket = "cmem_leases"

// ErrLeaseLost is the fence's answer once this process may no longer
// write: its lease expired, or another process holds it.
var ErrLeaseLost = errors.New("eventlog: lease lost")

// Lease makes one process at a time the writer of an external store (the
// ClickHouse audit tables, a Weaviate class) that every process would
// otherwise write: writes would multiply with the process count, and a
// lagging process could write again a fragment another had already
// deleted (issue 26). The holder's key in LeaseBucket expires TTL after
// its last renewal (every TTL/4), so when the holder dies another process
// takes over within about TTL.
//
// Fencing: a holder stops writing before another can start. Check, before
// each batch, answers ErrLeaseLost once TTL/2 has passed since the holder
// last sent a renewal that succeeded (the key lives TTL after the server
// stored it, later still), or when the key's revision — the fencing token,
// new at each renewal — is not the holder's own.
type Lease struct {
	kv     jetstream.KeyValue
	key    string
	holder string // the key's value while this process holds it: holder#pid
	self   string // holder
	ttl    time.Duration
	logger *slog.Logger

	mu    sync.Mutex
	rev   uint64    // the key's revision this process last stored (0: not held)
	until time.Time // this process writes until then at most
}

// Lease returns the lease named name (one per store) held as holder, with
// ttl (0: 6 s). It provisions the bucket. holder names this process and
// no other live one; a process restarted on the same data may keep its
// name, and then takes the lease back at once. The key's value is
// holder#pid.
func (l *Log) Lease(ctx context.Context, name, holder string, ttl time.Duration) (*Lease, error) {
	if ttl == 0 {
		ttl = 6 * time.Second
	}
	if ttl < time.Second {
		return nil, fmt.Errorf("eventlog: lease TTL %s below 1s", ttl)
	}
	kv, err := l.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: LeaseBucket, Description: "cmem: one writer per external store", History: 1,
		TTL: ttl, Replicas: l.cfg.Replicas, Storage: jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("eventlog: lease bucket: %w", err)
	}
	return &Lease{kv: kv, key: name, holder: holder + "#" + strconv.Itoa(os.Getpid()), self: holder, ttl: ttl, logger: l.logger}, nil
}

// Held reports whether this process holds the lease now, by its own clock.
func (ls *Lease) Held() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.rev != 0 && time.Now().Before(ls.until)
}

// Check is the fence: nil only while this process holds the lease, its
// local deadline not passed and the key's revision its own.
func (ls *Lease) Check(ctx context.Context) error {
	ls.mu.Lock()
	rev, until := ls.rev, ls.until
	ls.mu.Unlock()
	if rev == 0 || !time.Now().Before(until) {
		return ErrLeaseLost
	}
	e, err := ls.kv.Get(ctx, ls.key)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrLeaseLost, err)
	}
	if e.Revision() != rev || string(e.Value()) != ls.holder {
		return fmt.Errorf("%w: revision %d held by %s", ErrLeaseLost, e.Revision(), e.Value())
	}
	return nil
}

// Run runs fn while this process holds the lease, for as long as ctx
// lives: it waits to acquire it, runs fn with a context that ends as soon
// as the lease is lost (a renewal refused, or not answered before the
// local deadline), and then tries again. A holder that ends (ctx ends)
// releases the lease, so that another takes over at once.
func (ls *Lease) Run(ctx context.Context, fn func(ctx context.Context)) {
	tick := time.NewTicker(ls.ttl / 4)
	defer tick.Stop()
	for {
		if ls.acquire(ctx) {
			ls.logger.Info("lease acquired: this process writes", "lease", ls.key, "holder", ls.holder)
			ls.hold(ctx, fn)
			ls.logger.Info("lease ended: this process stops writing", "lease", ls.key, "holder", ls.holder)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// acquire creates the key (it does not exist: nobody holds the lease), or
// takes it back when it names this holder: a process restarted after a
// crash, on the same data (see Log.Lease), need not wait for its previous
// life's key to expire.
func (ls *Lease) acquire(ctx context.Context) bool {
	sent := time.Now()
	actx, cancel := context.WithTimeout(ctx, ls.ttl/4)
	defer cancel()
	rev, err := ls.kv.Create(actx, ls.key, []byte(ls.holder))
	if errors.Is(err, jetstream.ErrKeyExists) {
		var e jetstream.KeyValueEntry
		if e, err = ls.kv.Get(actx, ls.key); err == nil {
			if prev, _, _ := strings.Cut(string(e.Value()), "#"); prev != ls.self {
				return false
			}
			rev, err = ls.kv.Update(actx, ls.key, []byte(ls.holder), e.Revision())
		}
	}
	if err != nil {
		return false
	}
	ls.set(rev, sent)
	return true
}

func (ls *Lease) set(rev uint64, sent time.Time) {
	ls.mu.Lock()
	ls.rev, ls.until = rev, sent.Add(ls.ttl/2)
	ls.mu.Unlock()
}

// hold runs fn and renews the lease until fn returns, ctx ends, or a
// renewal fails past the local deadline; then it lets the lease go.
func (ls *Lease) hold(ctx context.Context, fn func(context.Context)) {
	hctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(hctx)
	}()
	tick := time.NewTicker(ls.ttl / 4)
	defer tick.Stop()
	for {
		select {
		case <-done:
			cancel()
			ls.release()
			return
		case <-tick.C:
		}
		if !ls.renew(hctx) && !ls.Held() {
			cancel() // fn stops writing: its fence already refuses
			<-done
			ls.release()
			return
		}
	}
}

// renew stores the holder again on the revision it last stored.
func (ls *Lease) renew(ctx context.Context) bool {
	ls.mu.Lock()
	rev := ls.rev
	ls.mu.Unlock()
	sent := time.Now()
	actx, cancel := context.WithTimeout(ctx, ls.ttl/4)
	next, err := ls.kv.Update(actx, ls.key, []byte(ls.holder), rev)
	cancel()
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			ls.set(0, sent) // another holds it: stop at once
		}
		ls.logger.Warn("lease renewal failed", "lease", ls.key, "err", err)
		return false
	}
	ls.set(next, sent)
	return true
}

// release deletes the key if this process still holds it.
func (ls *Lease) release() {
	ls.mu.Lock()
	rev := ls.rev
	ls.rev = 0
	ls.mu.Unlock()
	if rev == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), ls.ttl/4)
	defer cancel()
	_ = ls.kv.Delete(ctx, ls.key, jetstream.LastRevision(rev))
}
