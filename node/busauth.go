package node

import (
	"crypto/subtle"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/subjects"
	"github.com/cmem/cmem/workers"
)

// busAuth lets clients onto the embedded NATS server. cmem's own
// connections present the service token and are checked before this (see
// eventlog.Config.InternalToken); nothing cmem hands out reaches that.
//
// A registered user — admin or not: an admin's powers are HTTP commands,
// not bus rights — may publish only on its own query subject and subscribe
// only to its own answers and to inboxes under _INBOX.<user>., so it can
// neither ask as someone else, read anyone else's answers, write the log,
// nor touch the JetStream API. The bootstrap admin token is not a user and
// is refused. The reader token gets eventlog.ReaderGrant: read-only
// consumers on the event stream.
type busAuth struct {
	g      *access.Graph
	reader string
	stream string
	// durables are cmem's own consumers, which a reader may not touch.
	durables []string
}

func (b busAuth) Authorize(token string) (eventlog.Grant, bool) {
	if b.reader != "" && subtle.ConstantTimeCompare([]byte(token), []byte(b.reader)) == 1 {
		return eventlog.ReaderGrant(b.stream, b.durables...), true
	}
	u, ok := b.g.UserByToken(app.TokenSum(token))
	if !ok {
		return eventlog.Grant{}, false
	}
	return eventlog.Grant{
		Name:      u.ID,
		Publish:   []string{subjects.Query(u.ID)},
		Subscribe: []string{subjects.Inbox(u.ID) + ".>", subjects.Answers(u.ID)},
	}, true
}

// workerDurables names the workers' durable consumers (workers/router.go:
// <group>-<handler>), which the reader grant protects.
func workerDurables(group string) []string {
	if group == "" {
		group = "cmem"
	}
	return []string{group + "-" + workers.ConsumerCoordinator, group + "-" + workers.ConsumerAgent, group + "-" + workers.ConsumerReplier}
}
