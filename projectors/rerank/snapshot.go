package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/snapshot"
)

// state is the model as a snapshot holds it: every pool fragment, and the
// lesson it taught if it was admitted, sealed under that fragment's data
// key (its words and key vector are content). Postings and the taught
// index are derived and rebuilt at restore.
type state struct {
	Revision uint64
	Pool     []sealedEntry
}

// sealedEntry keeps in clear only what the log keeps in clear (ids, the
// revision, provenance); erasing a fragment whose content is gone needs them.
type sealedEntry struct {
	ID        string
	User      string
	Rev       uint64
	Agents    []string
	Resources []string
	Sealed    string
}

// entryState is the content of one pool fragment and what it taught.
type entryState struct {
	Terms  map[string]int
	Length int
	Model  string
	Vec    []float32
	Lesson *lessonState `json:",omitempty"`
}

type lessonState struct {
	Query, Answer []string
	Deltas        []Contribution
}

var _ snapshot.Freezer = (*Model)(nil)

// MarshalSnapshot implements snapshot.Section. A fragment whose key is gone
// is left out; its erasure event, before the snapshot, already removed it.
func (m *Model) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return m.FreezeSnapshot()(ctx, s)
}

// frozenEntry is an entry and its lesson as they were at a freeze.
type frozenEntry struct {
	entry
	lesson *lessonState
}

// FreezeSnapshot implements snapshot.Freezer: entries are copied by value
// (their terms and vectors are never changed once made; a lesson's lists
// are replaced, not changed in place); the result encodes and seals them.
func (m *Model) FreezeSnapshot() snapshot.Frozen {
	m.mu.RLock()
	revision := m.revision
	pool := sortedByRev(m.pool)
	frozen := make([]frozenEntry, len(pool))
	for i, e := range pool {
		frozen[i].entry = *e
		if l, ok := m.lessons[e.id]; ok {
			frozen[i].lesson = &lessonState{Query: l.query, Answer: l.answer, Deltas: l.deltas}
		}
	}
	m.mu.RUnlock()
	return func(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
		return sealPool(ctx, s, revision, frozen)
	}
}

func sealPool(ctx context.Context, s snapshot.Sealer, revision uint64, pool []frozenEntry) ([]byte, error) {
	st := state{Revision: revision, Pool: make([]sealedEntry, 0, len(pool))}
	for _, e := range pool {
		es := entryState{Terms: e.terms, Length: e.length, Model: e.model, Vec: e.vec, Lesson: e.lesson}
		plain, err := json.Marshal(es)
		if err != nil {
			return nil, fmt.Errorf("rerank: encode snapshot of %s: %w", e.id, err)
		}
		sealed, err := s.Seal(ctx, events.DataSubject{User: e.user, Fragment: e.id}, plain)
		if errors.Is(err, snapshot.ErrGone) {
			continue
		}
		if err != nil {
			return nil, err
		}
		st.Pool = append(st.Pool, sealedEntry{ID: e.id, User: e.user, Rev: e.rev, Agents: e.prov.Agents,
			Resources: e.prov.Resources, Sealed: sealed})
	}
	return snapshot.EncodeJSON("rerank", st)
}

// RestoreSnapshot implements snapshot.Section. A fragment whose key was
// destroyed after the snapshot was taken is erased as its erasure event
// would have erased it: removed, with the lessons whose pool held it
// learned again, so the restored model is the one a replay builds.
func (m *Model) RestoreSnapshot(ctx context.Context, s snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st state
	if err := snapshot.DecodeJSON("rerank", data, &st); err != nil {
		return nil, err
	}
	r, err := New(m.cfg)
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, se := range st.Pool {
		e := &entry{id: se.ID, user: se.User, rev: se.Rev, prov: access.Provenance{Agents: se.Agents, Resources: se.Resources}}
		r.pool[e.id] = e
		plain, err := s.Open(ctx, se.Sealed)
		if errors.Is(err, snapshot.ErrGone) {
			// A husk without content: erase below removes it and
			// relearns the lessons whose pool held it.
			gone = append(gone, se.ID)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("rerank: open snapshot of %s: %w", se.ID, err)
		}
		var es entryState
		if err := json.Unmarshal(plain, &es); err != nil {
			return nil, fmt.Errorf("rerank: decode snapshot of %s: %w", se.ID, err)
		}
		e.terms, e.length, e.model, e.vec = es.Terms, es.Length, es.Model, es.Vec
		if es.Lesson != nil {
			r.lessons[e.id] = &lesson{entry: *e, query: es.Lesson.Query, answer: es.Lesson.Answer, deltas: es.Lesson.Deltas}
		}
	}
	for _, e := range sortedByRev(r.pool) {
		r.post(e)
	}
	for _, l := range r.lessons {
		r.index(l)
	}
	r.erase(gone)
	r.revision = revision
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.revision, m.pool, m.lessons, m.taught, m.postings = r.revision, r.pool, r.lessons, r.taught, r.postings
	}, nil
}
