package app

import (
	"context"
	"github.com/cmem/cmem/domain"
	"slices"

	"github.com/cmem/cmem/projectors/access"
)

// UserAccess is one user's row of the access graph: A(u) with R(a) for
// each agent.
type UserAccess struct {
	ID     string               `json:"id"`
	Agents []access.AgentAccess `json:"agents"`
}

// GraphAnswer is the access graph users → agents → resources at one point.
// Agents and Resources are the nodes the caller may see: every registered
// one for an admin; for a user, only those reachable from itself.
type GraphAnswer struct {
	Revision  uint64       `json:"revision"`
	Users     []UserAccess `json:"users"`
	Agents    []string     `json:"agents"`
	Resources []string     `json:"resources"`
}

// AccessGraph answers "who could use what" at q. An admin gets every
// user's row and every registered agent and resource; a user gets only its
// own row, which is what AccessOf already shows it.
func (a *App) AccessGraph(ctx context.Context, by domain.Identity, q AsOf) (GraphAnswer, error) {
	rev, p, err := a.asOfPoint(ctx, q)
	if err != nil {
		return GraphAnswer{}, err
	}
	if by.Admin {
		ans := GraphAnswer{Revision: rev, Users: []UserAccess{}, Agents: a.view.AgentIDs(), Resources: a.view.ResourceIDs()}
		for _, u := range a.view.UserIDs() {
			ans.Users = append(ans.Users, UserAccess{ID: u, Agents: a.view.Access(u, p)})
		}
		return ans, nil
	}
	row := UserAccess{ID: by.ID, Agents: a.view.Access(by.ID, p)}
	ans := GraphAnswer{Revision: rev, Users: []UserAccess{row}, Agents: []string{}, Resources: []string{}}
	for _, ag := range row.Agents {
		ans.Agents = append(ans.Agents, ag.ID)
		for _, r := range ag.Resources {
			if !slices.Contains(ans.Resources, r) {
				ans.Resources = append(ans.Resources, r)
			}
		}
	}
	slices.Sort(ans.Resources)
	return ans, nil
}
