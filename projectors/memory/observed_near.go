package memory

import (
	"slices"
	"strings"
	"time"
)

// The registry indexes fragments by the minute they were observed, so that
// a view can read the fragments observed next to one of its hits (the turn
// after the one that shares the question's words) without a search: a
// per-minute bucket keeps a write O(1) whatever order the writes come in.

// observedSlot is the index bucket of an observed time.
func observedSlot(t time.Time) int64 { return t.Unix() / 60 }

// listObserved adds f to the per-minute index; the caller holds fs.mu.
func (fs *Fragments) listObserved(f FragmentInfo) {
	if f.ObservedAt.IsZero() {
		return
	}
	if fs.byMinute == nil {
		fs.byMinute = map[int64][]string{}
	}
	s := observedSlot(f.ObservedAt)
	fs.byMinute[s] = append(fs.byMinute[s], f.ID)
}

// unlistObserved removes f from the per-minute index; the caller holds fs.mu.
func (fs *Fragments) unlistObserved(f FragmentInfo) {
	if f.ObservedAt.IsZero() {
		return
	}
	s := observedSlot(f.ObservedAt)
	ids := slices.DeleteFunc(fs.byMinute[s], func(id string) bool { return id == f.ID })
	if len(ids) == 0 {
		delete(fs.byMinute, s)
		return
	}
	fs.byMinute[s] = ids
}

// ObservedNear returns the fragments other than id observed within window
// of it, whoever may read them: the caller checks each one's admissibility
// before it reads or ranks anything by it. Nil when id is unknown.
func (fs *Fragments) ObservedNear(id string, window time.Duration) []FragmentInfo {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	f, ok := fs.byID[id]
	if !ok || f.ObservedAt.IsZero() {
		return nil
	}
	var out []FragmentInfo
	for s := observedSlot(f.ObservedAt.Add(-window)); s <= observedSlot(f.ObservedAt.Add(window)); s++ {
		for _, other := range fs.byMinute[s] {
			o := fs.byID[other]
			if d := o.ObservedAt.Sub(f.ObservedAt); other != id && d >= -window && d <= window {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(x, y FragmentInfo) int {
		if c := x.ObservedAt.Compare(y.ObservedAt); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out
}
