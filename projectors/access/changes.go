package access

import (
	"sort"
	"time"
)

// Graph names of a Change.
const (
	GraphUserAgent     = "user-agent"
	GraphAgentResource = "agent-resource"
)

// Change is one grant or revoke of one edge, as the log recorded it.
type Change struct {
	Revision uint64    `json:"revision"`
	At       time.Time `json:"at"`
	// Graph is GraphUserAgent (From a user, To an agent) or
	// GraphAgentResource (From an agent, To a resource).
	Graph   string `json:"graph"`
	From    string `json:"from"`
	To      string `json:"to"`
	Granted bool   `json:"granted"`
}

// Changes returns every grant and revoke with a revision in (after, upTo],
// in log order: the events between two states of the graphs. It is meant
// for consoles and reports, not for permission checks.
func (g *Graph) Changes(after, upTo uint64) []Change {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var out []Change
	collect := func(e edges, graph string) {
		for from, m := range e {
			for to, h := range m {
				i := sort.Search(len(h.byRev), func(i int) bool { return h.byRev[i].rev > after })
				for _, c := range h.byRev[i:] {
					if c.rev > upTo {
						break
					}
					out = append(out, Change{Revision: c.rev, At: time.Unix(0, c.at).UTC(), Graph: graph, From: from, To: to, Granted: c.granted})
				}
			}
		}
	}
	collect(g.ua, GraphUserAgent)
	collect(g.ar, GraphAgentResource)
	sort.Slice(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out
}
