package app

import (
	"context"
	"github.com/cmem/cmem/domain"
	"sort"
	"time"
)

// UsageRow is what one user used in a window: queries, agent turns per
// agent, resource calls per resource.
type UsageRow struct {
	User      string            `json:"user"`
	Queries   uint64            `json:"queries"`
	Agents    map[string]uint64 `json:"agents"`
	Resources map[string]uint64 `json:"resources"`
}

// UsageAnswer is the usage side of the access matrix (the paper's Fig. 6
// and 11) over [From, To).
type UsageAnswer struct {
	From  *time.Time `json:"from,omitempty"`
	To    *time.Time `json:"to,omitempty"`
	Users []UsageRow `json:"users"`
	// Truncated says the window held more than MaxQueryList queries and
	// only the newest were counted.
	Truncated bool `json:"truncated"`
}

// Usage counts, per user, the agent turns and resource calls of the queries
// submitted in [from, to). It is built from ListQueries, so it counts
// exactly the steps the caller may be shown: an admin every user's, a user
// its own.
func (a *App) Usage(ctx context.Context, by domain.Identity, user string, from, to *time.Time) (UsageAnswer, error) {
	items, err := a.ListQueries(ctx, by, ListQuery{User: user, From: from, To: to, Limit: MaxQueryList})
	if err != nil {
		return UsageAnswer{}, err
	}
	rows := map[string]*UsageRow{}
	for _, it := range items {
		r := rows[it.User]
		if r == nil {
			r = &UsageRow{User: it.User, Agents: map[string]uint64{}, Resources: map[string]uint64{}}
			rows[it.User] = r
		}
		r.Queries++
		for _, s := range it.Steps {
			if s.Agent != "" {
				r.Agents[s.Agent]++
			}
			for _, c := range s.ResourceCalls {
				r.Resources[c.Resource]++
			}
		}
	}
	ans := UsageAnswer{From: from, To: to, Users: []UsageRow{}, Truncated: len(items) == MaxQueryList}
	for _, r := range rows {
		ans.Users = append(ans.Users, *r)
	}
	sort.Slice(ans.Users, func(i, j int) bool { return ans.Users[i].User < ans.Users[j].User })
	return ans, nil
}
