package app

import (
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// withLineage fills each fragment's DerivedFrom with the sources it was
// written from that user may read through agent at now: a shared fragment
// can derive from its writer's private one, and a reader who may see the
// derived fragment must not learn even the id of a source it could not
// read itself.
func (a *App) withLineage(user, agent string, now access.Point, tiers ...[]domain.Fragment) {
	for _, fs := range tiers {
		for i := range fs {
			info, ok := a.fragments.Get(fs[i].ID)
			if !ok {
				continue
			}
			for _, src := range info.DerivedFrom {
				s, ok := a.fragments.Get(src)
				if !ok || s.Tier == events.TierPrivate && s.User != user ||
					!a.view.Admissible(user, agent, access.Provenance{Agents: s.Agents, Resources: s.Resources}, now) {
					continue
				}
				fs[i].DerivedFrom = append(fs[i].DerivedFrom, src)
			}
		}
	}
}
