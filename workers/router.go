package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmjs "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/jetstream"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/internal/tracing"
)

// Consumer names. They are stable: renaming one creates a new durable
// consumer that starts from the beginning of the stream.
const (
	ConsumerCoordinator = "coordinator"
	ConsumerAgent       = "agent-runtime"
	ConsumerReplier     = "replier"
)

// Bus is the log as the router needs it.
type Bus interface {
	Conn() *nats.Conn
	JetStream() jetstream.JetStream
	StreamName() string
	DeadLetter(ctx context.Context, consumer string, m eventlog.Msg, reason string) error
}

// errPermanent marks a failure that no retry can fix (an event that is not
// valid): it goes to the dead-letter subject instead of being redelivered.
var errPermanent = errors.New("workers: permanent failure")

const (
	metaRevision = "cmem-revision"
	metaSubject  = "cmem-subject"
	metaEventID  = "cmem-event-id"
)

// NewRouter returns a Watermill router running the pipeline's three
// handlers on durable consumers of bus. Run it with router.Run(ctx); Run
// (Supervise) also builds a new one whenever a consumer is lost.
func NewRouter(p *Pipeline, bus Bus, logger *slog.Logger) (*message.Router, error) {
	return newRouter(p, bus, logger, nil)
}

// newRouter is NewRouter; lost (nil: none) is told when a handler's
// subscription ends on its own, which watermill-nats does not notice (see
// shutdownSafe).
func newRouter(p *Pipeline, bus Bus, logger *slog.Logger, lost func(error)) (*message.Router, error) {
	wlog := watermill.NewSlogLoggerWithLevelMapping(logger, map[slog.Level]slog.Level{slog.LevelInfo: slog.LevelDebug})
	r, err := message.NewRouter(message.RouterConfig{CloseTimeout: p.cfg.StageTimeout}, wlog)
	if err != nil {
		return nil, err
	}
	poison, err := middleware.PoisonQueueWithFilter(deadLetters{bus}, "dead-letter",
		func(err error) bool { return errors.Is(err, errPermanent) })
	if err != nil {
		return nil, err
	}
	um := &unmarshaler{}
	r.AddMiddleware(
		um.heartbeat(p.cfg.AckWait/3), // outermost: it covers the retries too
		poison,
		middleware.Retry{MaxRetries: 3, InitialInterval: 200 * time.Millisecond, Multiplier: 2, Logger: wlog,
			ShouldRetry: func(p middleware.RetryParams) bool { return !errors.Is(p.Err, errPermanent) }}.Middleware,
		middleware.Recoverer,
	)
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	handlers := []struct {
		name  string
		types []string
		fn    func(context.Context, events.Record) error
	}{
		{ConsumerCoordinator, []string{events.TypeQuerySubmitted, events.TypeAgentResponded}, p.coordinate},
		{ConsumerAgent, []string{events.TypeAgentSelected}, p.runAgent},
		{ConsumerReplier, []string{events.TypeQueryAnswered, events.TypeQueryFailed}, p.reply},
	}
	for _, h := range handlers {
		name := p.cfg.Group + "-" + h.name
		sub, err := wmjs.NewSubscriber(wmjs.SubscriberConfig{
			// Watermill waits for the handler as long as a stage may run;
			// the server's AckWait is short and kept alive by heartbeats.
			Conn: bus.Conn(), Logger: wlog, AckWaitTimeout: p.cfg.StageTimeout + 30*time.Second,
			ResourceInitializer: durable(bus.StreamName(), name, p.cfg.AckWait, logger, lost),
			Unmarshaler:         um,
			NakDelay:            wmjs.NewStaticDelay(time.Second),
			// One message at a time per subscriber: pre-buffered messages
			// would age past AckWait while a slow stage runs.
			ConsumeOptions: []jetstream.PullConsumeOpt{jetstream.PullMaxMessages(1)},
		})
		if err != nil {
			return nil, err
		}
		r.AddConsumerHandler(h.name, h.name, sub, typed(v, h.name, opener(bus), h.types, bounded(2*p.cfg.StageTimeout, h.fn)))
	}
	return r, nil
}

// durable provisions the shared durable consumer of one handler: every
// worker process binds to the same one, so each event goes to one of them.
//
// MaxDeliver is unlimited: an event that JetStream stops delivering is a
// query stranded until its timeout (issue 26: with a limit of 20, a stage
// that failed through a few leader elections in a row, each delivery
// waiting out AckWait or a NakDelay, was dropped for good). An event no
// retry can fix is dead-lettered and acknowledged instead (errPermanent),
// and a query that never ends is failed by its timeout.
func durable(stream, name string, ackWait time.Duration, logger *slog.Logger, lost func(error)) wmjs.ResourceInitializer {
	return func(ctx context.Context, js jetstream.JetStream, _ string) (jetstream.Consumer, func(context.Context, watermill.LoggerAdapter), error) {
		c, err := js.CreateOrUpdateConsumer(ctx, stream, consumerConfig(name, ackWait))
		if err != nil {
			return nil, nil, fmt.Errorf("workers: consumer %s: %w", name, err)
		}
		return shutdownSafe{Consumer: c, name: name, logger: logger, lost: lost}, nil, nil
	}
}

// consumerConfig is the shared durable consumer name of one handler.
func consumerConfig(name string, ackWait time.Duration) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable: name, FilterSubject: subjects.EventsUnder("queries"), AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: ackWait, MaxDeliver: -1, DeliverPolicy: jetstream.DeliverAllPolicy, MaxAckPending: 1024,
	}
}

// bounded gives each handling of an event at most d: a stage that waits
// for projections that stopped (a runner cut off from its NATS node) or a
// log that does not answer would otherwise hold its event for ever, its
// heartbeats keeping it from every other worker, and with one message in
// flight per subscriber the whole handler stalls. Ended, the event is
// handled again after NakDelay.
func bounded(d time.Duration, fn func(context.Context, events.Record) error) func(context.Context, events.Record) error {
	return func(ctx context.Context, rec events.Record) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return fn(ctx, rec)
	}
}

// typed parses the event, skips types the handler does not take, and turns
// an invalid event into a permanent failure. Sealed content is opened
// with open. A handled event runs as the stage span of handler name, a
// child of the span that appended the event (its trace context rides in the
// message's headers).
func typed(v *events.Validator, name string, open openFunc, types []string, fn func(context.Context, events.Record) error) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		rev, _ := strconv.ParseUint(msg.Metadata.Get(metaRevision), 10, 64)
		e, err := v.ParseEnvelope(msg.Payload)
		if err != nil {
			return fmt.Errorf("%w: %w", errPermanent, err)
		}
		// Sealed content is opened before the data check: the schema holds
		// plaintext. A key store that cannot answer is retried.
		if e, err = open(msg.Context(), e); err != nil {
			return err
		}
		if err := v.CheckData(e); err != nil {
			return fmt.Errorf("%w: %w", errPermanent, err)
		}
		for _, t := range types {
			if e.Type == t {
				ctx := tracing.Extract(msg.Context(), propagation.MapCarrier(msg.Metadata))
				rec := events.Record{Envelope: e, Revision: rev}
				return tracing.Stage(ctx, name, func(ctx context.Context) error { return fn(ctx, rec) },
					attribute.String("cmem.event", e.Type), attribute.String("cmem.subject", e.Subject), attribute.Int64("cmem.revision", int64(rev)))
			}
		}
		return nil
	}
}

// unmarshaler keeps the stream sequence (the revision) of each message; it
// never fails, so a bad payload reaches the handler and its dead letter.
// It also keeps each JetStream message until its handler ends, so that the
// handler can tell the server it is still at work (heartbeat).
type unmarshaler struct {
	inflight sync.Map // watermill message UUID -> jetstream.Msg
}

func (u *unmarshaler) Unmarshal(m jetstream.Msg) (*message.Message, error) {
	// A fresh UUID per delivery: the event id may be delivered again
	// while an abandoned delivery of it is still being handled.
	wm := message.NewMessage(watermill.NewUUID(), m.Data())
	u.inflight.Store(wm.UUID, m)
	if meta, err := m.Metadata(); err == nil {
		wm.Metadata.Set(metaRevision, strconv.FormatUint(meta.Sequence.Stream, 10))
	}
	wm.Metadata.Set(metaSubject, m.Subject())
	wm.Metadata.Set(metaEventID, m.Headers().Get(nats.MsgIdHdr))
	for _, k := range tracing.Fields() {
		if v := m.Headers().Get(k); v != "" {
			wm.Metadata.Set(k, v)
		}
	}
	return wm, nil
}

// heartbeat wraps a handler: while it runs, the message's JetStream
// delivery is marked in progress every interval, which resets the server's
// AckWait. A worker that dies stops the heartbeats, and the event goes to
// another worker within AckWait.
func (u *unmarshaler) heartbeat(interval time.Duration) message.HandlerMiddleware {
	return func(h message.HandlerFunc) message.HandlerFunc {
		return func(msg *message.Message) ([]*message.Message, error) {
			v, ok := u.inflight.LoadAndDelete(msg.UUID)
			if !ok {
				return h(msg)
			}
			jm := v.(jetstream.Msg)
			done := make(chan struct{})
			defer close(done)
			go func() {
				t := time.NewTicker(interval)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case <-t.C:
						_ = jm.InProgress() // a lost heartbeat only risks a redelivery, which is harmless
					}
				}
			}()
			return h(msg)
		}
	}
}

// deadLetters is the poison queue's publisher: it records the message on
// the log's dead-letter subject of the handler that gave up.
type deadLetters struct{ bus Bus }

func (d deadLetters) Publish(_ string, msgs ...*message.Message) error {
	for _, m := range msgs {
		rev, _ := strconv.ParseUint(m.Metadata.Get(metaRevision), 10, 64)
		consumer := m.Metadata.Get(middleware.PoisonedHandlerKey)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := d.bus.DeadLetter(ctx, consumer, eventlog.Msg{Revision: rev, Subject: m.Metadata.Get(metaSubject), Data: m.Payload},
			m.Metadata.Get(middleware.ReasonForPoisonedKey))
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

func (deadLetters) Close() error { return nil }

type openFunc func(context.Context, events.Envelope) (events.Envelope, error)

// opener is the bus's Open when it seals content (*eventlog.Log does),
// else the identity.
func opener(bus Bus) openFunc {
	if o, ok := bus.(interface {
		Open(context.Context, events.Envelope) (events.Envelope, error)
	}); ok {
		return o.Open
	}
	return func(_ context.Context, e events.Envelope) (events.Envelope, error) { return e, nil }
}
