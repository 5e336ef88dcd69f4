package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events/subjects"
)

// ReaderAPI passes the read-only event-stream reader's consumer creations
// on to JetStream once it has checked them. The reader lives in its own
// account (subjects.ReaderAccount), from which consumer creation reaches
// cmem's account only here: a push consumer delivers its messages, from
// cmem's account, to whatever subject its configuration names, so the
// reader's must name none (a pull consumer) or one under its own inbox
// prefix, never a user's inbox, answers or query subject, the key-value
// store or cmem's own subjects; and it may not take the name of one of
// cmem's durable consumers.
type ReaderAPI struct {
	sub       *nats.Subscription
	nc        *nats.Conn
	protected []string
	logger    *slog.Logger
}

// ReaderAPIQueue is the queue group of every process's ReaderAPI, so each
// creation is answered once.
const ReaderAPIQueue = "cmem-reader-api"

// StartReaderAPI serves the reader's consumer creations on stream with nc,
// a connection of cmem's that may use the JetStream API; protected names
// cmem's durable consumers.
func StartReaderAPI(nc *nats.Conn, stream string, protected []string, logger *slog.Logger) (*ReaderAPI, error) {
	r := &ReaderAPI{nc: nc, protected: protected, logger: logger}
	var err error
	if r.sub, err = nc.QueueSubscribe(subjects.ReaderAPIRoot+".>", ReaderAPIQueue, r.handle); err != nil {
		return nil, fmt.Errorf("gateway: reader api: %w", err)
	}
	return r, nil
}

// Close stops serving the reader.
func (r *ReaderAPI) Close() error { return r.sub.Drain() }

// consumerCreate is the part of a JetStream consumer creation request that
// the check reads.
type consumerCreate struct {
	Config struct {
		DeliverSubject string `json:"deliver_subject"`
		Durable        string `json:"durable_name"`
		Name           string `json:"name"`
	} `json:"config"`
}

func (r *ReaderAPI) handle(m *nats.Msg) {
	if m.Reply == "" {
		return
	}
	var req consumerCreate
	if err := json.Unmarshal(m.Data, &req); err != nil {
		r.refuse(m, 400, "the request is not a consumer configuration")
		return
	}
	c := req.Config
	switch {
	case !subjects.ReaderDeliveryAllowed(c.DeliverSubject):
		subjects.Dropped("reader-api")
		r.logger.Warn("reader api: a push consumer delivering outside the reader's inboxes refused")
		r.refuse(m, 403, fmt.Sprintf("a reader's push consumer must deliver under %s. (or be a pull consumer)", subjects.ReaderInbox))
		return
	case slices.Contains(r.protected, c.Durable) || slices.Contains(r.protected, c.Name):
		r.refuse(m, 403, "cmem's own consumers are not the reader's")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out := nats.NewMsg(subjects.JSConsumerCreate(m.Subject))
	out.Data, out.Header = m.Data, m.Header
	resp, err := r.nc.RequestMsgWithContext(ctx, out)
	if err != nil {
		r.refuse(m, 503, "JetStream did not answer")
		return
	}
	_ = m.Respond(resp.Data)
}

// refuse answers with a JetStream API error, which clients report as such.
func (r *ReaderAPI) refuse(m *nats.Msg, code int, description string) {
	b, _ := json.Marshal(map[string]any{
		"type":  "io.nats.jetstream.api.v1.consumer_create_response",
		"error": map[string]any{"code": code, "description": "cmem: " + description},
	})
	_ = m.Respond(b)
}
