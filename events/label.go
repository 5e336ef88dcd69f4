package events

import (
	"slices"
)

// Label is the provenance of a piece of text: the agents and resources it
// derives from, and the memory fragments it was built from. Every text a
// model is shown carries one, and everything the model outputs carries the
// union of the labels of its whole context. A fragment written from an
// output takes the label's agents and resources as its provenance.
//
// The fragments' own agents and resources are folded into Agents and
// Resources when the label is made, so the read rule needs only those two
// sets; Fragments stays for the audit ("where did this come from").
type Label struct {
	Agents    []string `json:"agents"`
	Resources []string `json:"resources"`
	Fragments []string `json:"fragments,omitempty"`
}

// Union is the label of a text derived from every one of ls: sorted,
// without duplicates, never nil.
func Union(ls ...Label) Label {
	var out Label
	for _, l := range ls {
		out.Agents = append(out.Agents, l.Agents...)
		out.Resources = append(out.Resources, l.Resources...)
		out.Fragments = append(out.Fragments, l.Fragments...)
	}
	out.Agents, out.Resources = SortedSet(out.Agents), SortedSet(out.Resources)
	if out.Fragments = SortedSet(out.Fragments); len(out.Fragments) == 0 {
		out.Fragments = nil
	}
	return out
}

// IsEmpty reports whether the text derives from nothing but the user's own
// words.
func (l Label) IsEmpty() bool {
	return len(l.Agents) == 0 && len(l.Resources) == 0 && len(l.Fragments) == 0
}

// SortedSet returns s sorted without duplicates, never nil (sets of ids
// are serialised, and [] is not null).
func SortedSet(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}
