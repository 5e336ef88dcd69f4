package eventlog

import (
	"crypto/subtle"

	"github.com/nats-io/nats-server/v2/server"
)

// Grant is what an authenticated bus client may do. Nil lists with All
// false allow nothing.
type Grant struct {
	// Name identifies the client in server logs (a cmem user id).
	Name string
	// All lifts every restriction (cmem's own processes, admins).
	All bool
	// Publish and Subscribe are subject patterns the client may use.
	Publish, Subscribe []string
}

// Authorizer maps a bearer token presented on connect to a Grant. It is
// consulted for every connection to the embedded server, so a user
// registered a moment ago can connect at once.
type Authorizer interface {
	Authorize(token string) (Grant, bool)
}

// serverAuth adapts an Authorizer to nats-server's custom authentication.
// The internal token (cmem's own connections) is checked first.
type serverAuth struct {
	internal string
	authz    Authorizer
}

func (a serverAuth) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	token := o.Token
	if token == "" {
		token = o.Password // user/password clients: the password is the token
	}
	if token == "" {
		return false
	}
	if a.internal != "" && subtle.ConstantTimeCompare([]byte(token), []byte(a.internal)) == 1 {
		c.RegisterUser(&server.User{Username: "cmem"})
		return true
	}
	if a.authz == nil {
		return false
	}
	g, ok := a.authz.Authorize(token)
	if !ok {
		return false
	}
	u := &server.User{Username: g.Name}
	if !g.All {
		u.Permissions = &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: nonEmpty(g.Publish)},
			Subscribe: &server.SubjectPermission{Allow: nonEmpty(g.Subscribe)},
		}
	}
	c.RegisterUser(u)
	return true
}

// nonEmpty keeps an empty allow list from meaning "no restriction".
func nonEmpty(s []string) []string {
	if len(s) == 0 {
		return []string{"_cmem.nothing"}
	}
	return s
}
