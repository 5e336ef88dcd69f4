package memory

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/vectors"
)

// encode and decode are the coding of this package's sections.
func encode(what string, v any) ([]byte, error) { return snapshot.EncodeJSON("memory: "+what, v) }

func decode(what string, data []byte, v any) error {
	return snapshot.DecodeJSON("memory: "+what, data, v)
}

// packedFragment is a view fragment as a snapshot seals it: the vector as
// packed little-endian floats (JSON would spell every one out).
type packedFragment struct {
	vectors.Fragment
	Packed []byte
}

func encodeFragment(f vectors.Fragment) ([]byte, error) {
	p := packedFragment{Fragment: f, Packed: make([]byte, 4*len(f.Vector))}
	for i, x := range f.Vector {
		binary.LittleEndian.PutUint32(p.Packed[4*i:], math.Float32bits(x))
	}
	p.Vector = nil
	return encode("view fragment", p)
}

func decodeFragment(data []byte) (vectors.Fragment, error) {
	var p packedFragment
	if err := decode("view fragment", data, &p); err != nil {
		return vectors.Fragment{}, err
	}
	if len(p.Packed)%4 != 0 {
		return vectors.Fragment{}, fmt.Errorf("memory: view fragment %s: vector of %d bytes", p.ID, len(p.Packed))
	}
	p.Vector = make([]float32, len(p.Packed)/4)
	for i := range p.Vector {
		p.Vector[i] = math.Float32frombits(binary.LittleEndian.Uint32(p.Packed[4*i:]))
	}
	return p.Fragment, nil
}

var (
	_ snapshot.Section = (*Policies)(nil)
	_ snapshot.Freezer = (*Fragments)(nil)
	_ snapshot.Freezer = (*ViewProjection)(nil)
)

// MarshalSnapshot implements snapshot.Section: every setting (no content).
func (ps *Policies) MarshalSnapshot(context.Context, snapshot.Sealer) ([]byte, error) {
	ps.mu.RLock()
	var all [][]Policy
	for _, l := range ps.byKey {
		all = append(all, l)
	}
	ps.mu.RUnlock()
	return encode("policies", all)
}

// RestoreSnapshot implements snapshot.Section.
func (ps *Policies) RestoreSnapshot(_ context.Context, _ snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var all [][]Policy
	if err := decode("policies", data, &all); err != nil {
		return nil, err
	}
	byKey := make(map[policyKey][]Policy, len(all))
	for _, l := range all {
		if len(l) > 0 {
			byKey[policyKey{l[0].Target, l[0].Scope}] = l
		}
	}
	return func() {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		ps.revision, ps.byKey = revision, byKey
	}, nil
}

// fragmentsState is the registry as a snapshot holds it: ids, provenance
// and times in clear; each fragment's content (fact key, time expressions)
// sealed under its own key, so a deletion since the snapshot takes it.
type fragmentsState struct {
	Fragments []FragmentInfo
	Content   []sealedFragment
	Groups    [][]string
	// Erased are the hashes of values erased per scope (no content).
	Erased map[string]map[string]int `json:",omitempty"`
}

// fragmentContent is the content part of a FragmentInfo.
type fragmentContent struct {
	Fact     string
	TimeRefs []events.TimeRef
}

// MarshalSnapshot implements snapshot.Section.
func (fs *Fragments) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return marshalFrozen(ctx, s, fs)
}

// FreezeSnapshot implements snapshot.Freezer: the registry's values are
// copied (a FragmentInfo is replaced, never changed in place), content is
// sealed when the result runs.
func (fs *Fragments) FreezeSnapshot() snapshot.Frozen {
	fs.mu.RLock()
	st := fragmentsState{Fragments: make([]FragmentInfo, 0, len(fs.byID))}
	for _, f := range fs.byID {
		st.Fragments = append(st.Fragments, f)
	}
	for _, ms := range fs.members {
		st.Groups = append(st.Groups, slices.Clone(ms))
	}
	st.Erased = fs.erasedCopy()
	fs.mu.RUnlock()
	return st.seal
}

func (st fragmentsState) seal(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	var err error
	st.Content, err = sealEach(ctx, s, st.Fragments, func(f FragmentInfo) (string, string, []byte, error) {
		if f.Fact == "" && len(f.TimeRefs) == 0 {
			return f.ID, f.User, nil, nil
		}
		plain, err := encode("fragment content", fragmentContent{Fact: f.Fact, TimeRefs: f.TimeRefs})
		return f.ID, f.User, plain, err
	})
	if err != nil {
		return nil, err
	}
	return encode("fragments", st)
}

// RestoreSnapshot implements snapshot.Section. A snapshot of an earlier
// build (a bare list, no content) restores without fact keys or time
// expressions: fragments written after it have them.
func (fs *Fragments) RestoreSnapshot(ctx context.Context, s snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st fragmentsState
	if err := decode("fragments", data, &st); err != nil {
		if err2 := decode("fragments", data, &st.Fragments); err2 != nil {
			return nil, err
		}
	}
	byID := make(map[string]FragmentInfo, len(st.Fragments))
	for _, f := range st.Fragments {
		byID[f.ID] = f
	}
	err := openEach(ctx, s, st.Content, func(sf sealedFragment, plain []byte) error {
		var c fragmentContent
		if err := decode("fragment content", plain, &c); err != nil {
			return err
		}
		if f, ok := byID[sf.ID]; ok {
			f.Fact, f.TimeRefs = c.Fact, c.TimeRefs
			byID[sf.ID] = f
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	restored := NewFragments()
	restored.byID, restored.erased = byID, st.Erased
	for _, f := range byID {
		if f.Fact != "" {
			restored.byFact[f.Fact] = append(restored.byFact[f.Fact], f.ID)
		}
		restored.listObserved(f)
	}
	for _, ms := range st.Groups {
		if len(ms) > 0 {
			restored.members[ms[0]] = ms
			for _, m := range ms {
				restored.group[m] = ms[0]
			}
		}
	}
	return func() {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		fs.revision, fs.byID, fs.byFact, fs.group, fs.members = revision, restored.byID, restored.byFact, restored.group, restored.members
		fs.byMinute = restored.byMinute
		fs.erased = restored.erased
	}, nil
}

// Lister is a vector store whose whole content can be read back (the
// in-process store): the view snapshots only such a store.
type Lister interface {
	All(ctx context.Context) ([]vectors.Fragment, error)
}

// viewState is the in-process view as a snapshot holds it: ids in clear,
// each fragment (text, vector, provenance) sealed under its fragment key.
type viewState struct {
	Model     string
	Dims      int
	Fragments []sealedFragment
}

type sealedFragment struct {
	ID, User string
	Sealed   string
}

// MarshalSnapshot implements snapshot.Section. A fragment whose key was
// destroyed is left out: its erasure is in the log, and a rebuild would
// not index it either.
func (v *ViewProjection) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return marshalFrozen(ctx, s, v)
}

// FreezeSnapshot implements snapshot.Freezer: Lister.All returns a copy
// of the store; each fragment is encoded and sealed when the result runs.
func (v *ViewProjection) FreezeSnapshot() snapshot.Frozen {
	l, ok := v.store.(Lister)
	if !ok {
		err := fmt.Errorf("memory: view store %T cannot be snapshotted", v.store)
		return func(context.Context, snapshot.Sealer) ([]byte, error) { return nil, err }
	}
	all, err := l.All(context.Background())
	model, dims := v.model(), v.embedder.Dims()
	return func(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		return sealView(ctx, s, model, dims, all)
	}
}

func sealView(ctx context.Context, s snapshot.Sealer, model string, dims int, all []vectors.Fragment) ([]byte, error) {
	sealed, err := sealEach(ctx, s, all, func(f vectors.Fragment) (string, string, []byte, error) {
		plain, err := encodeFragment(f)
		return f.ID, f.User, plain, err
	})
	if err != nil {
		return nil, err
	}
	return encode("view", viewState{Model: model, Dims: dims, Fragments: sealed})
}

// RestoreSnapshot implements snapshot.Section. A snapshot made with
// another embedder is refused (the view must be rebuilt with this one); a
// fragment whose key was destroyed since is dropped, never restored.
func (v *ViewProjection) RestoreSnapshot(ctx context.Context, s snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st viewState
	if err := decode("view", data, &st); err != nil {
		return nil, err
	}
	if st.Model != v.model() || st.Dims != v.embedder.Dims() {
		return nil, fmt.Errorf("memory: view snapshot made by embedder %s/%d, this process embeds with %s/%d",
			st.Model, st.Dims, v.model(), v.embedder.Dims())
	}
	fs := make([]vectors.Fragment, 0, len(st.Fragments))
	err := openEach(ctx, s, st.Fragments, func(sf sealedFragment, plain []byte) error {
		f, err := decodeFragment(plain)
		if err != nil {
			return err
		}
		if f.ID != sf.ID || len(f.Vector) != st.Dims {
			return fmt.Errorf("memory: view snapshot fragment %s does not match its record", sf.ID)
		}
		fs = append(fs, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func() {
		// The in-process store cannot fail an upsert of checked fragments
		// but on close; a start that closes its store fails anyway.
		ctx := context.WithoutCancel(ctx)
		_ = v.store.Reset(ctx)
		_ = v.store.Upsert(ctx, fs)
		v.last = revision
	}, nil
}
