package app

import (
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/vectors"
)

func fromView(f vectors.Fragment) domain.Fragment {
	return domain.Fragment{ID: f.ID, Key: f.Key, Value: f.Value, Tier: f.Tier, User: f.User,
		Agents: f.Agents, Resources: f.Resources, CreatedAt: f.CreatedAt, Revision: f.Revision}
}
