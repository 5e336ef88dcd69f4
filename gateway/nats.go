package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events/subjects"
)

// IngressQueue is the queue group every gateway joins, so each query is
// taken by one of them.
const IngressQueue = "cmem-ingress"

// NATSIngress takes queries published on the bus. The publisher's identity
// is the subject's last token: on cmem's embedded server a user may only
// publish on its own subject (see node/busauth.go); on a cluster the
// operator grants the same permission (deploy/nats.conf).
//
// The ingress publishes with cmem's own connection, which may publish
// anywhere, so it answers only on a reply subject under _INBOX.<user>.
// (subjects.ReplyAllowed), errors included; a message naming any other
// reply is dropped unanswered and counted.
type NATSIngress struct {
	app    *app.App
	sub    *nats.Subscription
	nc     *nats.Conn
	logger *slog.Logger
	rate   Rate
	limits *limiter
	tokens *tokenGuard // nil: no check of the connection's token (nats_tokens.go)
}

// StartNATSIngress subscribes the ingress on nc; queries beyond rate per
// user are answered with a rate_limited error.
func StartNATSIngress(nc *nats.Conn, a *app.App, rate Rate, logger *slog.Logger, opts ...IngressOption) (*NATSIngress, error) {
	in := &NATSIngress{app: a, nc: nc, logger: logger, rate: rate, limits: newLimiter()}
	for _, o := range opts {
		o(in)
	}
	sub, err := nc.QueueSubscribe(subjects.QueryWildcard, IngressQueue, in.handle)
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
	// AsOf asks for the facts valid then, as on POST /v1/queries.
	AsOf string `json:"as_of,omitempty"`
}

func (in *NATSIngress) handle(m *nats.Msg) {
	seq := in.take()
	user := subjects.QueryUser(m.Subject)
	if m.Reply != "" && !subjects.ReplyAllowed(user, m.Reply) {
		subjects.Dropped("ingress")
		in.logger.Warn("nats ingress: query dropped, reply subject outside the user's inboxes", "user", user)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var q BusQuery
	var wait time.Duration
	err := decodeBytes(m.Data, &q, false)
	switch {
	case err == nil && !in.allow(user, &wait):
		err = errRateLimited{limit: "queries", wait: wait}
	case err != nil:
		err = fmt.Errorf("body must be {\"text\": \"...\"} (and optionally \"as_of\"): %w", err)
	default:
		var by domain.Identity
		if by, err = in.app.BusIdentity(ctx, user); err == nil {
			err = in.staleToken(m, user, seq)
		}
		var asOf *time.Time
		if err == nil {
			asOf, err = parseAsOf(q.AsOf)
		}
		if err == nil {
			_, _, err = in.app.SubmitQuery(ctx, by, q.Text, app.ChannelNATS, m.Reply, asOf)
		}
	}
	if err == nil {
		return // the answer arrives on the reply subject when the workers are done
	}
	status, code := statusOf(err)
	if status >= 500 && !errors.Is(err, domain.ErrUnavailable) {
		in.logger.Error("nats ingress", "subject", m.Subject, "err", err)
	}
	if m.Reply != "" {
		body, _ := json.Marshal(errorBody{Error: err.Error(), Code: code})
		_ = in.nc.Publish(m.Reply, body)
	}
}

// allow takes one query of user from its bucket, or sets *wait to how long
// until it could.
func (in *NATSIngress) allow(user string, wait *time.Duration) bool {
	ok, d := in.limits.allow("queries", user, in.rate)
	*wait = d
	return ok
}
