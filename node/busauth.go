package node

import (
	"context"
	"crypto/subtle"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/projectors/access"
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
//
// Once the node's App exists (set by node.New right after it is built; the
// server starts before it), a token is judged by app.Authenticate, which
// fences on users/ like every HTTP request: a registration, reactivation or
// deactivation acknowledged a moment ago is seen, though this process's
// projection may not have applied it yet. Before that, the projection alone.
type busAuth struct {
	g      *access.Graph
	reader string
	stream string
	// durables are cmem's own consumers, which a reader may not touch.
	durables []string
	app      atomic.Pointer[app.App]
}

// authWait bounds the fence of one connect: nats-server closes a
// connection still unauthorized after its auth timeout (2 s by default).
const authWait = 1500 * time.Millisecond

func (b *busAuth) Authorize(token string) (eventlog.Grant, bool) {
	if b.reader != "" && subtle.ConstantTimeCompare([]byte(token), []byte(b.reader)) == 1 {
		return eventlog.ReaderGrant(b.stream, b.durables...), true
	}
	id, ok := b.identify(token)
	if !ok {
		return eventlog.Grant{}, false
	}
	return eventlog.Grant{
		Name:      id,
		Publish:   []string{subjects.Query(id)},
		Subscribe: []string{subjects.Inboxes(id), subjects.Answers(id)},
		Epoch:     tokenEpoch(app.TokenSum(token)), // see busguard.go
	}, true
}

// identify returns the active user a token stands for; never the bootstrap
// admin, which is not a user.
func (b *busAuth) identify(token string) (string, bool) {
	if a := b.app.Load(); a != nil {
		ctx, cancel := context.WithTimeout(context.Background(), authWait)
		defer cancel()
		id, err := a.Authenticate(ctx, token)
		if err != nil || id.ID == app.AdminID {
			return "", false
		}
		return id.ID, true
	}
	u, ok := b.g.UserByToken(app.TokenSum(token))
	if !ok || (u.Status != "" && u.Status != access.StatusActive) {
		return "", false
	}
	return u.ID, true
}

// workerDurables names the workers' durable consumers (workers/router.go:
// <group>-<handler>), which the reader grant protects.
func workerDurables(group string) []string {
	if group == "" {
		group = "cmem"
	}
	return []string{group + "-" + workers.ConsumerCoordinator, group + "-" + workers.ConsumerAgent, group + "-" + workers.ConsumerReplier}
}
