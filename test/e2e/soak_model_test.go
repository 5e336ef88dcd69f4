package e2e_test

import (
	"slices"
	"time"
)

// soakModel is the churn soak's reference: the access graph as the soak
// changed it (each edge with its expiry), and every fragment still alive.
// The soak runs its operations one after another, so the model is exact
// but for expiries, which the server applies by its clock: a check whose
// answer depends on an edge ending inside the call's window is left out.
type soakModel struct {
	ua, ar    map[[2]string]time.Time // edge → expiry (zero: none)
	fragments map[string]soakFragment
	byUser    map[string][]string // live fragment ids per user, in write order
}

type soakFragment struct {
	ID, User, Key, Tier string
	Agents, Resources   []string
}

func newSoakModel() *soakModel {
	return &soakModel{ua: map[[2]string]time.Time{}, ar: map[[2]string]time.Time{}, fragments: map[string]soakFragment{}, byUser: map[string][]string{}}
}

// edge reports whether from→to holds at t.
func edge(m map[[2]string]time.Time, from, to string, t time.Time) bool {
	exp, ok := m[[2]string{from, to}]
	return ok && (exp.IsZero() || t.Before(exp))
}

// admissible is M(u,a,t) for f: the private tier only for its user,
// A(f) ⊆ A(u,t), R(f) ⊆ R(a,t).
func (m *soakModel) admissible(f soakFragment, user, agent string, t time.Time) bool {
	if f.Tier == "private" && f.User != user {
		return false
	}
	for _, a := range f.Agents {
		if !edge(m.ua, user, a, t) {
			return false
		}
	}
	for _, r := range f.Resources {
		if !edge(m.ar, agent, r, t) {
			return false
		}
	}
	return true
}

// agentsOf are the agents user may use at both t0 and t1.
func (m *soakModel) agentsOf(user string, agents []string, t0, t1 time.Time) []string {
	var out []string
	for _, a := range agents {
		if edge(m.ua, user, a, t0) && edge(m.ua, user, a, t1) {
			out = append(out, a)
		}
	}
	return out
}

// resourcesOf are the resources agent may use at both t0 and t1.
func (m *soakModel) resourcesOf(agent string, resources []string, t0, t1 time.Time) []string {
	var out []string
	for _, r := range resources {
		if edge(m.ar, agent, r, t0) && edge(m.ar, agent, r, t1) {
			out = append(out, r)
		}
	}
	return out
}

func (m *soakModel) write(f soakFragment) {
	m.fragments[f.ID] = f
	m.byUser[f.User] = append(m.byUser[f.User], f.ID)
}

func (m *soakModel) erase(id string) {
	f := m.fragments[id]
	delete(m.fragments, id)
	m.byUser[f.User] = slices.DeleteFunc(m.byUser[f.User], func(s string) bool { return s == id })
}
