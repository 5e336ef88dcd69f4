package app

import "github.com/cmem/cmem/domain"

// withTime fills each fragment's observed time from the registry (the
// vector view does not keep it); a fragment the registry has not seen yet
// was observed when it was recorded.
func (a *App) withTime(tiers ...[]domain.Fragment) {
	for _, fs := range tiers {
		for i := range fs {
			fs[i].ObservedAt = fs[i].CreatedAt
			if info, ok := a.fragments.Get(fs[i].ID); ok && !info.ObservedAt.IsZero() {
				fs[i].ObservedAt = info.ObservedAt
			}
		}
	}
}
