package memory

import (
	"slices"

	"github.com/cmem/cmem/events"
)

// Provenance is who and what a fragment's content came from.
type Provenance struct {
	Agents    []string
	Resources []string
}

// Derive is the provenance of a fragment written by agent using resources,
// from an interaction that read sources. In transitive mode (the default)
// it includes every source's agents and resources, so content never reaches,
// through a derived fragment, a user who could not read its sources; in
// direct mode only the writer's own. The result is sorted and unique.
func Derive(mode, agent string, resources []string, sources []Provenance) Provenance {
	agents := []string{agent}
	res := slices.Clone(resources)
	if mode != events.ProvenanceDirect {
		for _, s := range sources {
			agents = append(agents, s.Agents...)
			res = append(res, s.Resources...)
		}
	}
	return Provenance{Agents: SortedSet(agents), Resources: SortedSet(res)}
}

// SortedSet returns s sorted without duplicates, never nil (see
// events.SortedSet, which it is).
func SortedSet(s []string) []string { return events.SortedSet(s) }
