package memory

import (
	"slices"

	"github.com/cmem/cmem/events"
)

// Derived-content rule: a fragment derived from erased content is erased
// with it. Its provenance says it was written from what it read, and no
// rule can tell which parts of it came from the erased source, so keeping
// it "with the erased parts removed" would keep them. The eraser (app)
// lists the closure in the erasure event, so a replay drops exactly the
// same fragments whatever the registry held at the time.

// ErasedFragments returns the fragment ids an erasure event removes: a
// user's listed fragments, or a deleted fragment and those derived from it.
func ErasedFragments(r events.Record) ([]string, error) {
	p, err := r.Decode()
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *events.UserErased:
		return p.Fragments, nil
	case *events.FragmentDeleted:
		return append([]string{p.ID}, p.Derived...), nil
	}
	return nil, nil
}

// OfUser returns the ids of user's fragments, in no order.
func (fs *Fragments) OfUser(user string) []string {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	var out []string
	for id, f := range fs.byID {
		if f.User == user {
			out = append(out, id)
		}
	}
	return out
}

// DerivedFrom returns every fragment derived, directly or through other
// fragments, from any of ids (ids themselves excluded), sorted.
func (fs *Fragments) DerivedFrom(ids []string) []string {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	in := make(map[string]bool, len(ids))
	for _, id := range ids {
		in[id] = true
	}
	var out []string
	for grew := true; grew; {
		grew = false
		for id, f := range fs.byID {
			if in[id] {
				continue
			}
			for _, src := range f.DerivedFrom {
				if in[src] {
					in[id], grew = true, true
					out = append(out, id)
					break
				}
			}
		}
	}
	slices.Sort(out)
	return out
}
