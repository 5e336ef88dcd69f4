package eventlog

import (
	"crypto/subtle"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/cmem/cmem/events/subjects"
)

// Grant is what an authenticated bus client may do. Nil lists with All
// false allow nothing.
type Grant struct {
	// Name identifies the client in server logs (a cmem user id).
	Name string
	// All lifts every restriction. Only cmem's own service connection
	// (Config.InternalToken) gets it; nothing an Authorizer returns should.
	All bool
	// Publish and Subscribe are subject patterns the client may use.
	Publish, Subscribe []string
	// DenyPublish carves subjects out of Publish.
	DenyPublish []string
	// Reader puts the client in the reader account (subjects.ReaderAccount)
	// instead of cmem's; its permissions apply there.
	Reader bool
	// Epoch names the credential the client presented (not the credential
	// itself), so that its connections can be closed when that credential
	// stops being the user's (Log.CloseConnections). Empty: not tracked.
	Epoch string
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
	reader   *readerAccount
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
	u := &server.User{Username: connUser(g.Name, g.Epoch)}
	if g.Reader {
		if u.Account = a.reader.acc.Load(); u.Account == nil {
			return false // the server is not wired yet
		}
	}
	if !g.All {
		u.Permissions = &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: nonEmpty(g.Publish), Deny: g.DenyPublish},
			Subscribe: &server.SubjectPermission{Allow: nonEmpty(g.Subscribe)},
		}
	}
	c.RegisterUser(u)
	return true
}

// ReaderGrant is the read-only grant for analytics consumers of the event
// stream, who set subjects.ReaderInbox as their inbox prefix: stream info,
// get-by-sequence, consumers on the stream and their deliveries, live core
// subscriptions on the event subjects. It cannot publish an event, delete,
// purge or reconfigure a stream, delete a consumer, acknowledge, or read a
// user's inbox or answers; it may not create, bind to or pull from the
// consumers named in protected (cmem's own durable consumers), which would
// reconfigure them or steal their messages.
func ReaderGrant(stream string, protected ...string) Grant {
	var deny []string
	for _, c := range protected {
		deny = append(deny, "$JS.API.CONSUMER.*."+stream+"."+c, "$JS.API.CONSUMER.*."+stream+"."+c+".>",
			"$JS.API.CONSUMER.DURABLE.CREATE."+stream+"."+c, "$JS.API.CONSUMER.MSG.NEXT."+stream+"."+c)
	}
	return Grant{
		DenyPublish: deny,
		Reader:      true,
		Name:        "events-reader",
		Publish: []string{
			"$JS.API.INFO",
			"$JS.API.STREAM.INFO." + stream,
			"$JS.API.STREAM.MSG.GET." + stream,
			"$JS.API.CONSUMER.CREATE." + stream,
			"$JS.API.CONSUMER.CREATE." + stream + ".>",
			"$JS.API.CONSUMER.INFO." + stream + ".*",
			"$JS.API.CONSUMER.MSG.NEXT." + stream + ".*",
			"$JS.FC." + stream + ".>",
		},
		Subscribe: []string{subjects.ReaderInboxes, subjects.AllEvents},
	}
}

// nonEmpty keeps an empty allow list from meaning "no restriction".
func nonEmpty(s []string) []string {
	if len(s) == 0 {
		return []string{subjects.Nothing}
	}
	return s
}
