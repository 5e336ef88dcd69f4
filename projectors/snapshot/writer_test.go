package snapshot_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/projectors/snapshot/snapshottest"
)

// slowSection holds one user's content; its frozen copy seals it under the
// user's key and then waits for release before returning, so a test
// controls how long a marshal takes.
type slowSection struct {
	mu      sync.Mutex
	user    string
	content string
	freezes atomic.Int32
	started chan struct{} // closed when a marshal starts
	release chan struct{} // a marshal returns once it is closed
	once    sync.Once
}

func newSlowSection(user, content string) *slowSection {
	return &slowSection{user: user, content: content, started: make(chan struct{}), release: make(chan struct{})}
}

func (s *slowSection) Name() string { return "slow" }

func (s *slowSection) set(content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.content = content
}

func (s *slowSection) MarshalSnapshot(ctx context.Context, se snapshot.Sealer) ([]byte, error) {
	return s.FreezeSnapshot()(ctx, se)
}

func (s *slowSection) FreezeSnapshot() snapshot.Frozen {
	s.freezes.Add(1)
	s.mu.Lock()
	user, content := s.user, s.content
	s.mu.Unlock()
	return func(ctx context.Context, se snapshot.Sealer) ([]byte, error) {
		s.once.Do(func() { close(s.started) })
		<-s.release
		sealed, err := se.Seal(ctx, events.DataSubject{User: user}, []byte(content))
		if errors.Is(err, snapshot.ErrGone) {
			return []byte("gone"), nil
		}
		return []byte(sealed), err
	}
}

func (s *slowSection) RestoreSnapshot(ctx context.Context, se snapshot.Sealer, _ uint64, data []byte) (func(), error) {
	if string(data) == "gone" {
		return func() { s.set("") }, nil
	}
	plain, err := se.Open(ctx, string(data))
	if errors.Is(err, snapshot.ErrGone) {
		return func() { s.set("") }, nil
	}
	if err != nil {
		return nil, err
	}
	return func() { s.set(string(plain)) }, nil
}

// keyring is a Sealer whose users' keys can be destroyed, as an erasure
// does: sealed content names its user, and opens only while the key lives.
type keyring struct {
	mu        sync.Mutex
	destroyed map[string]bool
}

func (k *keyring) destroy(user string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.destroyed[user] = true
}

func (k *keyring) gone(user string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.destroyed[user]
}

func (k *keyring) Seal(_ context.Context, s events.DataSubject, plain []byte) (string, error) {
	if k.gone(s.User) {
		return "", snapshot.ErrGone
	}
	return s.User + ":" + string(plain), nil
}

func (k *keyring) Open(_ context.Context, sealed string) ([]byte, error) {
	user, plain, _ := strings.Cut(sealed, ":")
	if k.gone(user) {
		return nil, snapshot.ErrGone
	}
	return []byte(plain), nil
}

// runner applies batches as projectors.Runner does: under one lock, with
// the writer's hook called before it is released, and readers waiting on
// the revision it reached.
type runner struct {
	mu  sync.Mutex
	rev uint64
	w   *snapshot.Writer
	s   *slowSection
}

func (r *runner) apply(ctx context.Context, rev uint64, content string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.s.set(content)
	r.rev = rev
	r.w.AfterBatch(ctx, rev)
}

func (r *runner) revision() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rev
}

// A snapshot being marshalled does not hold the projections: while the
// marshal of the snapshot at 100 is blocked, the projection applies 101
// and a reader sees it; a snapshot due meanwhile is skipped, not run
// beside it; and what is stored is the state at 100, not the later one.
func TestWriterDoesNotHoldProjectionsWhileMarshalling(t *testing.T) {
	ctx := context.Background()
	st := snapshottest.NewMem()
	s := newSlowSection("alice", "S@100")
	w := snapshot.NewWriter(snapshot.Config{Every: 100, MinPeriod: -1}, st, snapshot.Clear{}, "test", nil, s)
	r := &runner{w: w, s: s}
	released := false
	t.Cleanup(func() {
		if !released {
			close(s.release)
		}
	})

	advanced := make(chan struct{})
	go func() {
		r.apply(ctx, 100, "S@100")
		r.apply(ctx, 101, "S@101")
		close(advanced)
	}()
	select {
	case <-advanced:
	case <-time.After(time.Minute):
		t.Fatal("the projection did not get past the snapshot's revision while its marshal was blocked: the snapshot holds the projections")
	}
	<-s.started // the marshal of 100 is running, and blocked
	if got := r.revision(); got != 101 {
		t.Fatalf("a reader sees revision %d during the marshal, want 101", got)
	}
	if revs, _ := st.Revisions(ctx); len(revs) != 0 {
		t.Fatalf("snapshots %v stored before the marshal returned", revs)
	}
	r.apply(ctx, 250, "S@250") // due, but one is in flight
	if n := s.freezes.Load(); n != 1 {
		t.Fatalf("%d freezes while one snapshot was in flight, want 1", n)
	}

	close(s.release)
	released = true
	w.Wait()
	revs, _ := st.Revisions(ctx)
	if len(revs) != 1 || revs[0] != 100 {
		t.Fatalf("snapshots stored at %v, want [100]", revs)
	}
	s.set("empty")
	if rev := snapshot.Restore(ctx, st, snapshot.Clear{}, 300, nil, s); rev != 100 || s.content != "S@100" {
		t.Fatalf("restored %d with %q, want 100 with the state frozen at 100", rev, s.content)
	}
}

// An erasure that lands while a snapshot frozen before it is still being
// marshalled never lets that snapshot bring the content back: the copy is
// sealed only after the hold, and a destroyed key seals nothing.
func TestErasureDuringMarshalNeverBringsContentBack(t *testing.T) {
	ctx := context.Background()
	st := snapshottest.NewMem()
	keys := &keyring{destroyed: map[string]bool{}}
	s := newSlowSection("alice", "alice's secret")
	w := snapshot.NewWriter(snapshot.Config{Every: 100, MinPeriod: -1}, st, keys, "test", nil, s)
	r := &runner{w: w, s: s}
	applied := make(chan struct{})
	go func() {
		r.apply(ctx, 100, "alice's secret") // frozen with alice's content in it
		close(applied)
	}()
	<-s.started
	keys.destroy("alice") // alice is erased while the snapshot of 100 is marshalled
	close(s.release)
	<-applied
	r.apply(ctx, 101, "")
	w.Wait()

	_, blob, err := st.Newest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(blob), "secret") {
		t.Fatal("the snapshot stored after the erasure holds alice's content")
	}
	s.set("empty")
	if rev := snapshot.Restore(ctx, st, keys, 200, nil, s); rev != 100 || s.content != "" {
		t.Fatalf("restored %d with %q after the erasure, want 100 with nothing of alice", rev, s.content)
	}
}
