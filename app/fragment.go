package app

import (
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/vectors"
)

// Fragment is a memory fragment as the API shows it (F in contract v1),
// under its historical name.
type Fragment = domain.Fragment

func fromView(f vectors.Fragment) Fragment {
	return Fragment{ID: f.ID, Key: f.Key, Value: f.Value, Tier: f.Tier, User: f.User,
		Agents: f.Agents, Resources: f.Resources, CreatedAt: f.CreatedAt, Revision: f.Revision}
}
