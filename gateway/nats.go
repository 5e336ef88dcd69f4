package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/app"
)

// QueryWildcard is the subject the NATS ingress listens on; a user
// publishes on QueryPrefix+<user id>.
const (
	QueryPrefix   = "cmem.query."
	QueryWildcard = QueryPrefix + "*"
	// IngressQueue is the queue group every gateway joins, so each query is
	// taken by one of them.
	IngressQueue = "cmem-ingress"
)

// NATSIngress takes queries published on the bus. The publisher's identity
// is the subject's last token: on cmem's embedded server a user may only
// publish on its own subject (see node/busauth.go); on a cluster the
// operator grants the same permission (deploy/nats.conf).
type NATSIngress struct {
	app    *app.App
	sub    *nats.Subscription
	nc     *nats.Conn
	logger *slog.Logger
	// InboxPerUser makes the ingress refuse reply subjects outside
	// _INBOX.<user>., the only inboxes a user may subscribe to on the
	// embedded server.
	inboxPerUser bool
}

// StartNATSIngress subscribes the ingress on nc.
func StartNATSIngress(nc *nats.Conn, a *app.App, inboxPerUser bool, logger *slog.Logger) (*NATSIngress, error) {
	in := &NATSIngress{app: a, nc: nc, logger: logger, inboxPerUser: inboxPerUser}
	sub, err := nc.QueueSubscribe(QueryWildcard, IngressQueue, in.handle)
	if err != nil {
		return nil, fmt.Errorf("gateway: nats ingress: %w", err)
	}
	in.sub = sub
	return in, nil
}

// Close stops taking queries; those already handed on keep running.
func (in *NATSIngress) Close() error { return in.sub.Drain() }

// BusQuery is the body a client publishes.
type BusQuery struct {
	Text string `json:"text"`
}

func (in *NATSIngress) handle(m *nats.Msg) {
	user := strings.TrimPrefix(m.Subject, QueryPrefix)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var q BusQuery
	err := json.Unmarshal(m.Data, &q)
	switch {
	case err != nil:
		err = fmt.Errorf("%w: body must be {\"text\": \"...\"}: %w", app.ErrInvalid, err)
	case in.inboxPerUser && m.Reply != "" && !strings.HasPrefix(m.Reply, "_INBOX."+user+"."):
		err = fmt.Errorf("%w: reply subject must be under _INBOX.%s. (use a custom inbox prefix)", app.ErrForbidden, user)
	default:
		var by app.Identity
		if by, err = in.app.BusIdentity(ctx, user); err == nil {
			_, _, err = in.app.SubmitQuery(ctx, by, q.Text, app.ChannelNATS, m.Reply)
		}
	}
	if err == nil {
		return // the answer arrives on the reply subject when the workers are done
	}
	status, code := statusOf(err)
	if status >= 500 && !errors.Is(err, app.ErrUnavailable) {
		in.logger.Error("nats ingress", "subject", m.Subject, "err", err)
	}
	if m.Reply != "" {
		body, _ := json.Marshal(errorBody{Error: err.Error(), Code: code})
		_ = in.nc.Publish(m.Reply, body)
	}
}
