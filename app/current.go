package app

import (
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
)

// The current version, per reader. Of the versions of one fact, the one
// current for (user, agent) at valid time T is the latest observed (then
// latest recorded) version observed at or before T that (user, agent) may
// read now. A view shows a fragment only if it is that version. So:
//   - a reader who may read the newest version sees it, and no trace of
//     the older ones;
//   - a reader who may read an older version but not the newest keeps
//     seeing the older one as current: hiding it would tell them that a
//     version they cannot read exists;
//   - nothing a reader may not read changes what they are shown.
// as_of (valid time) shows what was current then, under today's
// permissions: the log's record time stays the fragment's created_at.

// viewK is how many fragments a tier's search asks for: more than k when
// some of them may be dropped as not current or not yet valid.
func (a *App) viewK(k int, asOf *time.Time) int {
	switch {
	case asOf != nil:
		return min(4*k, 4*MaxK)
	case a.fragments.HasVersions():
		return min(2*k, 2*MaxK)
	}
	return k
}

// currentOnly keeps the first k fragments of fs that are the current
// version of their fact for (user, agent) at now, valid at asOf (nil:
// the latest).
func (a *App) currentOnly(user, agent string, now access.Point, asOf *time.Time, fs []domain.Fragment, k int) []domain.Fragment {
	out := fs[:0]
	for _, f := range fs {
		if len(out) == k {
			break
		}
		if a.isCurrent(user, agent, now, asOf, f) {
			out = append(out, f)
		}
	}
	return out
}

// isCurrent reports whether f is the version current for (user, agent)
// at asOf (see above); a fragment the registry does not know yet is.
func (a *App) isCurrent(user, agent string, now access.Point, asOf *time.Time, f domain.Fragment) bool {
	versions := a.fragments.Versions(f.ID)
	if len(versions) == 0 {
		return asOf == nil || !f.CreatedAt.After(*asOf)
	}
	cur, ok := a.currentOf(user, agent, now, asOf, versions)
	return ok && cur.ID == f.ID
}

// currentOf is the version of versions (oldest observed first) current
// for (user, agent) at asOf; false when none is readable and valid then.
func (a *App) currentOf(user, agent string, now access.Point, asOf *time.Time, versions []memory.FragmentInfo) (memory.FragmentInfo, bool) {
	for i := len(versions) - 1; i >= 0; i-- {
		v := versions[i]
		if asOf != nil && v.ObservedAt.After(*asOf) {
			continue
		}
		if a.readable(user, agent, v, now) {
			return v, true
		}
	}
	return memory.FragmentInfo{}, false
}
