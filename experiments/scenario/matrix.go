package scenario

import (
	"context"
	"slices"
)

// Matrix is the access matrix of Fig. 6/11: how often each user used each
// agent (agents the coordinator chose in the user's queries, from
// /v1/audit/metrics) and each resource (cmem.resource.called events on the
// bus), with the cells the access graph granted at some point marked.
type Matrix struct {
	Users           []string `json:"users"`
	Agents          []string `json:"agents"`
	Resources       []string `json:"resources"`
	AgentUse        [][]int  `json:"agent_use"`    // [user][agent]
	ResourceUse     [][]int  `json:"resource_use"` // [user][resource]
	AgentGranted    [][]bool `json:"agent_granted"`
	ResourceGranted [][]bool `json:"resource_granted"`
	// Outside counts uses that no grant of their block covered: must be 0.
	Outside int `json:"outside_grant"`
}

// access is what GET /v1/access said of each user in one block:
// user → agent → resources.
type access map[string]map[string][]string

// buildMatrix counts audited uses. blockOf maps a query id to its block,
// whose access (read from cmem before the block ran) judges every use.
func buildMatrix(users, agents, resources []string, qs []asked, blockOf map[string]int, blocks []access, calls []resourceCall) Matrix {
	m := Matrix{Users: users, Agents: agents, Resources: resources}
	m.AgentUse, m.ResourceUse = grid[int](len(users), len(agents)), grid[int](len(users), len(resources))
	m.AgentGranted, m.ResourceGranted = grid[bool](len(users), len(agents)), grid[bool](len(users), len(resources))
	for _, acc := range blocks {
		for u, user := range users {
			for agent, rs := range acc[user] {
				if a := slices.Index(agents, agent); a >= 0 {
					m.AgentGranted[u][a] = true
				}
				for _, r := range rs {
					if i := slices.Index(resources, r); i >= 0 {
						m.ResourceGranted[u][i] = true
					}
				}
			}
		}
	}
	for _, q := range qs {
		u, b := slices.Index(users, q.User), blockOf[q.ID]
		for _, agent := range q.Agents {
			if a := slices.Index(agents, agent); u >= 0 && a >= 0 {
				m.AgentUse[u][a]++
			}
			if _, ok := blocks[b][q.User][agent]; !ok {
				m.Outside++
			}
		}
	}
	for _, c := range calls {
		b, ok := blockOf[c.QueryID]
		if !ok {
			continue // another run's query
		}
		if u, r := slices.Index(users, c.User), slices.Index(resources, c.Resource); u >= 0 && r >= 0 {
			m.ResourceUse[u][r]++
		}
		if rs, ok := blocks[b][c.User][c.Agent]; !ok || !slices.Contains(rs, c.Resource) {
			m.Outside++
		}
	}
	return m
}

func grid[T any](rows, cols int) [][]T {
	g := make([][]T, rows)
	for i := range g {
		g[i] = make([]T, cols)
	}
	return g
}

// snapshot reads every user's access from cmem (GET /v1/access/{user}).
func (e *env) snapshot(ctx context.Context, users []string) (access, error) {
	acc := access{}
	for _, u := range users {
		a, err := e.c.access(ctx, u)
		if err != nil {
			return nil, err
		}
		acc[u] = a
	}
	return acc, nil
}
