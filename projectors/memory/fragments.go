package memory

import (
	"sync"
	"time"

	"github.com/cmem/cmem/events"
)

// FragmentInfo is what the registry keeps of a fragment: enough to check
// admissibility and propagate provenance without asking a vector store.
type FragmentInfo struct {
	ID        string
	Tier      string
	User      string
	Agents    []string
	Resources []string
	CreatedAt time.Time
	Revision  uint64
	// DerivedFrom are the fragments read by the interaction that wrote it.
	DerivedFrom []string
	// ObservedAt is the fragment's valid time (CreatedAt when the writer
	// gave none).
	ObservedAt time.Time
	// TimeRefs are its resolved relative time expressions.
	TimeRefs []events.TimeRef
}

// Provenance returns the fragment's provenance.
func (f FragmentInfo) Provenance() Provenance {
	return Provenance{Agents: f.Agents, Resources: f.Resources}
}

// Fragments is the in-memory registry of every fragment written.
type Fragments struct {
	mu       sync.RWMutex
	revision uint64
	byID     map[string]FragmentInfo
}

// NewFragments returns an empty registry.
func NewFragments() *Fragments { return &Fragments{byID: map[string]FragmentInfo{}} }

// Name implements projectors.Projection.
func (*Fragments) Name() string { return "fragments" }

// Apply implements projectors.Projection.
func (fs *Fragments) Apply(r events.Record) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if r.Revision <= fs.revision {
		return nil
	}
	fs.revision = r.Revision
	if r.Type == events.TypeUserErased || r.Type == events.TypeFragmentDeleted {
		ids, err := ErasedFragments(r)
		for _, id := range ids {
			delete(fs.byID, id)
		}
		return err
	}
	if r.Type != events.TypeFragmentWritten {
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	f := p.(*events.FragmentWritten)
	fs.byID[f.ID] = FragmentInfo{
		ID: f.ID, Tier: f.Tier, User: f.User, Agents: f.Agents, Resources: f.Resources,
		CreatedAt: r.Time, Revision: r.Revision, DerivedFrom: f.DerivedFrom,
		ObservedAt: observedTime(f, r.Time), TimeRefs: f.TimeRefs,
	}
	return nil
}

// Get returns the fragment with id.
func (fs *Fragments) Get(id string) (FragmentInfo, bool) {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	f, ok := fs.byID[id]
	return f, ok
}

// Len is the number of fragments registered.
func (fs *Fragments) Len() int {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	return len(fs.byID)
}

// Revisions returns every registered fragment id with the revision it was
// written at (for digests that compare processes).
func (fs *Fragments) Revisions() map[string]uint64 {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	out := make(map[string]uint64, len(fs.byID))
	for id, f := range fs.byID {
		out[id] = f.Revision
	}
	return out
}

// observedTime is f's valid time; a fragment without one was observed when
// its event was recorded.
func observedTime(f *events.FragmentWritten, recorded time.Time) time.Time {
	if f.ObservedAt != nil {
		return *f.ObservedAt
	}
	return recorded
}
