package gateway

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/domain"
)

// tokenGuard refuses bus queries from connections whose token is no longer
// the user's. The ingress cannot tell which connection published a
// message, only whose subject it is on; so it closes the user's stale
// connections (through closeStale, which only the process running the
// embedded server has) and refuses every query of that user it had
// received, or had queued, when it closed one: such a query may come from
// the old connection, and a refused query of the new one is only asked
// again.
type tokenGuard struct {
	closeStale func(user string) int
	received   atomic.Uint64 // queries taken by handle, in order

	// mu is held from closing a connection until its barrier is recorded,
	// so no check runs between the two.
	mu sync.Mutex
	// upTo[user] is the last query (by received) that may have come from a
	// connection closed for user.
	upTo map[string]uint64
	// closedAt[user] is when a connection of user was last closed. A
	// closed connection's reader may still be handing on what it had read
	// from its socket when it was closed, after the round trip that set
	// upTo; what reaches the ingress within closeGrace of it is refused too.
	closedAt map[string]time.Time
}

// closeGrace is how long after closing a user's stale connection its
// queries are refused whatever their number; a query of the user's new
// connection refused in that second is asked again.
const closeGrace = time.Second

// IngressOption configures StartNATSIngress.
type IngressOption func(*NATSIngress)

// GuardTokens makes the ingress check, for every query after its user's
// lifecycle fence, that none of the user's connections authenticated with
// a token since rotated or revoked: closeStale closes those connections and
// says how many it closed.
func GuardTokens(closeStale func(user string) int) IngressOption {
	return func(in *NATSIngress) {
		in.tokens = &tokenGuard{closeStale: closeStale, upTo: map[string]uint64{}, closedAt: map[string]time.Time{}}
	}
}

// CloseStale closes user's connections whose token is no longer current,
// now (the node calls it when a user's lifecycle changes), and marks the
// queries already received or queued as suspect. It returns how many
// connections it closed.
func (in *NATSIngress) CloseStale(user string) int { return in.closeStale(user, in.sub) }

func (in *NATSIngress) closeStale(user string, sub *nats.Subscription) int {
	g := in.tokens
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return in.closeStaleLocked(user, sub)
}

func (in *NATSIngress) closeStaleLocked(user string, sub *nats.Subscription) int {
	g := in.tokens
	n := g.closeStale(user)
	if n == 0 {
		return 0
	}
	// What the closed connection published before it was closed is, after
	// a round trip to the server, either taken or queued here.
	_ = in.nc.Flush()
	pending, _, _ := sub.Pending()
	g.upTo[user] = max(g.upTo[user], g.received.Load()+uint64(max(pending, 0)))
	g.closedAt[user] = time.Now()
	return n
}

// take numbers a query as the ingress takes it.
func (in *NATSIngress) take() uint64 {
	if in.tokens == nil {
		return 0
	}
	return in.tokens.received.Add(1)
}

// staleToken is an error when query seq of user may come from a connection
// whose token is no longer the user's; call it after the lifecycle fence.
func (in *NATSIngress) staleToken(m *nats.Msg, user string, seq uint64) error {
	g := in.tokens
	if g == nil {
		return nil
	}
	g.mu.Lock()
	closed := in.closeStaleLocked(user, m.Sub)
	suspect := seq <= g.upTo[user] || time.Since(g.closedAt[user]) < closeGrace
	g.mu.Unlock()
	if closed > 0 || suspect {
		return fmt.Errorf("%w: user %s's token was rotated or revoked since this connection opened; connect again with the current token (a query sent within a second of the change is refused either way: ask again)", domain.ErrUnauthenticated, user)
	}
	return nil
}
