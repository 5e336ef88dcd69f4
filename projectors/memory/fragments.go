package memory

import (
	"slices"
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
	// TimeRefs are its resolved relative time expressions and Fact its key
	// normalised for the same-key rule (FactKey): content, which a
	// snapshot seals under the fragment's key (fragmentContent).
	TimeRefs []events.TimeRef `json:"-"`
	Fact     string           `json:"-"`
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
	// byFact lists the fragments of each fact key; group and members are
	// the versions of each fact (versions.go).
	byFact  map[string][]string
	group   map[string]string
	members map[string][]string
	// erased holds, per scope, the hashes of values erased from it
	// (erased_values.go).
	erased map[string]map[string]int
	// byMinute lists the fragments observed in each minute
	// (observed_near.go).
	byMinute map[int64][]string
}

// NewFragments returns an empty registry.
func NewFragments() *Fragments {
	return &Fragments{byID: map[string]FragmentInfo{}, byFact: map[string][]string{},
		group: map[string]string{}, members: map[string][]string{}}
}

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
			fs.forget(id)
		}
		return err
	}
	if r.Type == events.TypeValuesErased {
		p, err := r.Decode()
		if err != nil {
			return err
		}
		fs.applyErased(p.(*events.ValuesErased))
		return nil
	}
	if r.Type != events.TypeFragmentWritten && r.Type != events.TypeFragmentSuperseded {
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	if s, ok := p.(*events.FragmentSuperseded); ok {
		fs.applySuperseded(s)
		return nil
	}
	f := p.(*events.FragmentWritten)
	info := FragmentInfo{
		ID: f.ID, Tier: f.Tier, User: f.User, Agents: f.Agents, Resources: f.Resources,
		CreatedAt: r.Time, Revision: r.Revision, DerivedFrom: f.DerivedFrom,
		ObservedAt: observedTime(f, r.Time), TimeRefs: f.TimeRefs, Fact: FactKey(f.Key),
	}
	if old, ok := fs.byID[f.ID]; ok { // written again (a replayed step): keep one entry per fact
		fs.unlistFact(old)
		fs.unlistObserved(old)
	}
	fs.byID[f.ID] = info
	fs.listObserved(info)
	if info.Fact != "" {
		fs.byFact[info.Fact] = append(fs.byFact[info.Fact], f.ID)
	}
	return nil
}

// forget drops an erased fragment; the caller holds fs.mu.
func (fs *Fragments) forget(id string) {
	if f, ok := fs.byID[id]; ok {
		fs.unlistFact(f)
		fs.unlistObserved(f)
	}
	fs.forgetVersion(id)
	delete(fs.byID, id)
}

// unlistFact removes f from its fact key's list; the caller holds fs.mu.
func (fs *Fragments) unlistFact(f FragmentInfo) {
	ids := slices.DeleteFunc(fs.byFact[f.Fact], func(id string) bool { return id == f.ID })
	if len(ids) == 0 {
		delete(fs.byFact, f.Fact)
		return
	}
	fs.byFact[f.Fact] = ids
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
