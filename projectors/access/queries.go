package access

import (
	"sort"
	"time"
)

// Agents returns A(u,p), sorted.
func (g *Graph) Agents(user string, p Point) []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.ua.neighbours(user, p)
}

// Resources returns R(a,p), sorted.
func (g *Graph) Resources(agent string, p Point) []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.ar.neighbours(agent, p)
}

// Access returns A(u,p) with R(a,p) for each agent, sorted by agent id, and
// the expiry of every edge in the answer whose grant has one.
func (g *Graph) Access(user string, p Point) []AgentAccess {
	g.mu.RLock()
	defer g.mu.RUnlock()
	agents := g.ua.neighbours(user, p)
	agentExp := g.ua.expiries(user, p)
	out := make([]AgentAccess, len(agents))
	for i, a := range agents {
		out[i] = AgentAccess{ID: a, Resources: g.ar.neighbours(a, p)}
		if ns, ok := agentExp[a]; ok {
			t := time.Unix(0, ns).UTC()
			out[i].ExpiresAt = &t
		}
		for r, ns := range g.ar.expiries(a, p) {
			if out[i].ResourceExpiry == nil {
				out[i].ResourceExpiry = map[string]time.Time{}
			}
			out[i].ResourceExpiry[r] = time.Unix(0, ns).UTC()
		}
	}
	return out
}

// CanInvoke reports whether agent ∈ A(user,p).
func (g *Graph) CanInvoke(user, agent string, p Point) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.ua.has(user, agent, p)
}

// CanUse reports whether resource ∈ R(agent,p).
func (g *Graph) CanUse(agent, resource string, p Point) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.ar.has(agent, resource, p)
}

// User returns the registered user id.
func (g *Graph) User(id string) (User, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	u, ok := g.users[id]
	return u, ok
}

// UserByToken returns the user whose token has the hex SHA-256 sum.
func (g *Graph) UserByToken(sum string) (User, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	id, ok := g.byToken[sum]
	if !ok {
		return User{}, false
	}
	return g.users[id], true
}

// Agent returns the registered agent id.
func (g *Graph) Agent(id string) (Agent, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	a, ok := g.agents[id]
	return a, ok
}

// Resource returns the registered resource id.
func (g *Graph) Resource(id string) (Resource, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	r, ok := g.resources[id]
	return r, ok
}

// AgentIDs returns every registered agent id, sorted: the universe a vector
// store needs to express "A(m) ⊆ A(u,t)" as "no agent outside A(u,t)".
func (g *Graph) AgentIDs() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return sortedKeys(g.agents)
}

// UserIDs returns every registered user id, sorted.
func (g *Graph) UserIDs() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return sortedKeys(g.users)
}

// ResourceIDs returns every registered resource id, sorted.
func (g *Graph) ResourceIDs() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return sortedKeys(g.resources)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
