package node

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events/subjects"
)

// The embedded server fixes a user's bus rights when it connects. So that a
// rotated or revoked token (or an erased user's) stops working on a
// connection already open, as it does over HTTP at once:
//
//   - every user connection is tagged with its token's epoch (busAuth);
//   - when a lifecycle event of a user is appended, the node closes that
//     user's connections whose epoch is no longer the user's current one
//     (watchTokens), and
//   - the NATS ingress, after fencing on users/ for each query, closes them
//     too and refuses the query if any was open, or had been closed while
//     the query was already on its way (gateway.NATSIngress.GuardTokens),
//     so no query from an old connection is accepted after the change was
//     acknowledged, whichever of the two comes first.

// tokenEpoch names a token by its hex SHA-256 sum without being the sum
// (the index HTTP authentication looks tokens up by) and short enough for
// the server's logs.
func tokenEpoch(sum string) string {
	s := sha256.Sum256([]byte("cmem-bus-epoch\x00" + sum))
	return hex.EncodeToString(s[:8])
}

// closeStale closes user's bus connections that authenticated with a token
// other than the user's current one (rotated, revoked, erased), and returns
// how many. A deactivated user keeps its token and its connection, whose
// queries the ingress answers "unauthenticated" (BusIdentity) until it is
// reactivated.
func (n *Node) closeStale(user string) int {
	return n.Log.CloseConnections(user, func(epoch string) bool {
		u, ok := n.Graph.User(user)
		return ok && u.TokenSHA256 != "" && tokenEpoch(u.TokenSHA256) == epoch
	})
}

// watchTokens closes a user's stale bus connections as soon as a lifecycle
// event of the user is on the log and this process's projection has it
// (the fence of BusIdentity). Only the embedded server has connections to
// close.
func (n *Node) watchTokens() error {
	if n.cfg.NATSURL != "" {
		return nil
	}
	prefix := subjects.Event("users") + "."
	sub, err := n.Log.Conn().Subscribe(subjects.EventsUnder("users"), func(m *nats.Msg) {
		user := strings.TrimPrefix(m.Subject, prefix)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = n.App.BusIdentity(ctx, user) // the fence; an inactive user is closed below all the same
		if n.ingress != nil {
			n.ingress.CloseStale(user)
			return
		}
		n.closeStale(user)
	})
	if err != nil {
		return err
	}
	n.guardSub = sub
	return nil
}
