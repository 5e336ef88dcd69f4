package app

import (
	"strings"

	"github.com/cmem/cmem/projectors/access"
)

// scopeGrant is one scope agent a speaker may invoke: the agent's id
// without the scope prefix, the scope it reads, and whether it is that
// scope's own (full) agent rather than a summary, class or withheld one.
type scopeGrant struct {
	id, base string
	own      bool
}

// partScopes returns the scope agents speaker may invoke at now, their own
// record's aside: the scopes an unnamed turn of theirs could be about.
// self is their own record when they hold its full agent, else "".
func (a *App) partScopes(speaker string, now access.Point) (gs []scopeGrant, self string) {
	for _, ag := range a.view.Agents(speaker, now) {
		id, ok := strings.CutPrefix(ag, scopePrefix)
		if !ok {
			continue
		}
		base, own := scopeBase(id)
		if base == recordPrefix+speaker {
			if own {
				self = id
			}
			continue
		}
		gs = append(gs, scopeGrant{id: id, base: base, own: own})
	}
	return gs, self
}
