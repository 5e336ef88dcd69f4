package app

import (
	"strings"

	"github.com/cmem/cmem/domain"
)

// withTime fills each fragment's observed time and resolved expressions
// from the registry (the vector view keeps neither); a fragment the
// registry has not seen yet was observed when it was recorded. An
// expression is shown only while its text is still in the key or value
// the reader sees: a read policy that redacted or summarised it away must
// not have it come back through time_refs.
func (a *App) withTime(tiers ...[]domain.Fragment) {
	for _, fs := range tiers {
		for i := range fs {
			f := &fs[i]
			f.ObservedAt = f.CreatedAt
			info, ok := a.fragments.Get(f.ID)
			if !ok || info.ObservedAt.IsZero() {
				continue
			}
			f.ObservedAt = info.ObservedAt
			for _, r := range timeRefs(info.TimeRefs) {
				if strings.Contains(f.Key, r.Text) || strings.Contains(f.Value, r.Text) {
					f.TimeRefs = append(f.TimeRefs, r)
				}
			}
		}
	}
}
