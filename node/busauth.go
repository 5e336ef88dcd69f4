package node

import (
	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/workers"
)

// busAuth lets registered users onto the embedded NATS server with their
// cmem token. A user may publish only on its own query subject and
// subscribe only to its own answers and to inboxes under _INBOX.<user>.,
// so it can neither ask as someone else nor read anyone else's answers.
// Admins may do everything, including reading the event stream.
type busAuth struct{ g *access.Graph }

func (b busAuth) Authorize(token string) (eventlog.Grant, bool) {
	u, ok := b.g.UserByToken(app.TokenSum(token))
	if !ok || (u.Status != "" && u.Status != access.StatusActive) {
		return eventlog.Grant{}, false
	}
	if u.Role == events.RoleAdmin {
		return eventlog.Grant{Name: u.ID, All: true}, true
	}
	return eventlog.Grant{
		Name:      u.ID,
		Publish:   []string{gateway.QueryPrefix + u.ID},
		Subscribe: []string{"_INBOX." + u.ID + ".>", workers.AnswersSubject(u.ID)},
	}, true
}
