package eventlog

import (
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// epochSep joins a user's name and its credential's epoch in the name the
// embedded server knows a connection by ("bob#3f2a…"): user ids never
// contain it.
const epochSep = "#"

// connUser is the server-side user name of a connection of name that
// authenticated with the credential of epoch.
func connUser(name, epoch string) string {
	if epoch == "" {
		return name
	}
	return name + epochSep + epoch
}

// CloseConnections closes the embedded server's client connections of
// user whose credential's epoch (Grant.Epoch) keep rejects, and returns how
// many it closed. A user's rights on the bus are fixed when it connects;
// this is how a rotated or revoked token, or a deactivated user, loses a
// connection it already has. Connections of other users, of cmem itself
// and of the reader are never touched. On an external cluster it closes
// nothing: there the operator's configuration holds the credentials, and a
// reload closes the connections whose credential it no longer accepts.
func (l *Log) CloseConnections(user string, keep func(epoch string) bool) int {
	if l.srv == nil || user == "" {
		return 0
	}
	prefix := user + epochSep
	var stale []uint64
	for offset := 0; ; { // collect first: closing while paging would shift the pages
		cz, err := l.srv.Connz(&server.ConnzOptions{Username: true, Offset: offset, Limit: 1024})
		if err != nil || len(cz.Conns) == 0 {
			break
		}
		for _, c := range cz.Conns {
			if epoch, ok := strings.CutPrefix(c.AuthorizedUser, prefix); ok && !keep(epoch) {
				stale = append(stale, c.Cid)
			}
		}
		offset += len(cz.Conns)
		if offset >= cz.Total {
			break
		}
	}
	closed := 0
	for _, cid := range stale {
		if l.srv.DisconnectClientByID(cid) == nil {
			closed++
		}
	}
	return closed
}
