package memory

import (
	"cmp"
	"slices"

	"github.com/cmem/cmem/events"
)

// Versions of a fact: a FragmentSuperseded puts its new fragment in its old
// one's group, and a group is every version of one fact. A group keeps its
// members when one is erased (the others are still versions of the fact),
// so erasing the newest makes the one before it current again. Which
// member is current depends on the reader: the latest observed one it may
// read (app decides; the registry only knows the groups).

// applySuperseded joins p.New to p.Old's group; the caller holds fs.mu.
func (fs *Fragments) applySuperseded(p *events.FragmentSuperseded) {
	if _, ok := fs.byID[p.Old]; !ok {
		return // erased before its supersession was applied
	}
	if _, ok := fs.byID[p.New]; !ok {
		return
	}
	g, from := fs.groupOf(p.Old), fs.groupOf(p.New)
	if g == from {
		return
	}
	for _, id := range fs.members[from] {
		fs.group[id] = g
	}
	fs.members[g] = append(fs.members[g], fs.members[from]...)
	delete(fs.members, from)
}

// groupOf is id's group, making a group of one for a fragment in none;
// the caller holds fs.mu for writing.
func (fs *Fragments) groupOf(id string) string {
	if g, ok := fs.group[id]; ok {
		return g
	}
	fs.group[id], fs.members[id] = id, []string{id}
	return id
}

// forgetVersion drops an erased fragment from its group; the caller holds
// fs.mu for writing.
func (fs *Fragments) forgetVersion(id string) {
	g, ok := fs.group[id]
	if !ok {
		return
	}
	delete(fs.group, id)
	ms := slices.DeleteFunc(fs.members[g], func(m string) bool { return m == id })
	if len(ms) == 0 {
		delete(fs.members, g)
		return
	}
	fs.members[g] = ms
}

// Versions returns every version of id's fact, id included, oldest
// observed first (ties: older revision first); just id when it has none,
// nothing when it is unknown.
func (fs *Fragments) Versions(id string) []FragmentInfo {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	f, ok := fs.byID[id]
	if !ok {
		return nil
	}
	g, ok := fs.group[id]
	if !ok {
		return []FragmentInfo{f}
	}
	out := make([]FragmentInfo, 0, len(fs.members[g]))
	for _, m := range fs.members[g] {
		out = append(out, fs.byID[m])
	}
	slices.SortFunc(out, func(a, b FragmentInfo) int {
		if c := a.ObservedAt.Compare(b.ObservedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Revision, b.Revision)
	})
	return out
}

// HasVersions reports whether any fragment has another version; a view
// needs no version check until one has.
func (fs *Fragments) HasVersions() bool {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	return len(fs.members) > 0
}

// SameFactAs returns the fragments that are versions of f's fact under the
// offline rule (same fact key, tier and, for private, user), in no order.
func (fs *Fragments) SameFactAs(f FragmentInfo) []FragmentInfo {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	var out []FragmentInfo
	for _, id := range fs.byFact[f.Fact] {
		if o := fs.byID[id]; SameFact(f, o) {
			out = append(out, o)
		}
	}
	return out
}
