package access

import "github.com/cmem/cmem/events"

// User statuses. Only an active user's token authenticates.
const (
	StatusActive      = "active"
	StatusDeactivated = "deactivated"
	StatusErased      = "erased"
)

// applyLifecycle folds a user lifecycle event into the users and the token
// index. An erased user stays known (its id is never given again, and the
// audit names it) but has no token. Called with g.mu held.
func (g *Graph) applyLifecycle(p events.Payload) {
	setToken := func(id, sum string) {
		u, ok := g.users[id]
		if !ok {
			return
		}
		delete(g.byToken, u.TokenSHA256)
		u.TokenSHA256 = sum
		if sum != "" {
			g.byToken[sum] = id
		}
		g.users[id] = u
	}
	setStatus := func(id, status string) {
		if u, ok := g.users[id]; ok && u.Status != StatusErased {
			u.Status = status
			g.users[id] = u
		}
	}
	switch p := p.(type) {
	case *events.UserTokenRotated:
		if u, ok := g.users[p.User]; ok && u.Status != StatusErased {
			setToken(p.User, p.TokenSHA256)
		}
	case *events.UserTokenRevoked:
		setToken(p.User, "")
	case *events.UserDeactivated:
		setStatus(p.User, StatusDeactivated)
	case *events.UserReactivated:
		setStatus(p.User, StatusActive)
	case *events.UserErased:
		setToken(p.User, "")
		setStatus(p.User, StatusErased)
	}
}
