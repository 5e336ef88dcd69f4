package eventlog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/subjects"
)

// Log is an open event log. It is safe for concurrent use.
type Log struct {
	cfg       Config
	srv       *server.Server // nil when connected to an external cluster
	nc        *nats.Conn
	js        jetstream.JetStream
	stream    jetstream.Stream
	dlq       jetstream.Stream
	validator *events.Validator
	sealer    Sealer
	logger    *slog.Logger
	// pending feeds the group committers (nil: every append goes alone);
	// stop ends them.
	pending    chan *pendingAppend
	stop       chan struct{}
	committers sync.WaitGroup
	stopOnce   sync.Once
}

// Open connects to the cluster at cfg.URL, or starts the embedded server,
// and provisions both streams. Provisioning is idempotent: an existing stream
// is updated to the configuration, never recreated.
func Open(ctx context.Context, cfg Config, logger *slog.Logger) (*Log, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logger = cmp.Or(logger, slog.Default())
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	l := &Log{cfg: cfg, validator: v, logger: logger}
	opts := []nats.Option{nats.Name(cfg.Name), nats.MaxReconnects(-1)}
	url := cfg.URL
	if url != "" {
		// A cluster none of whose nodes listens yet is one not ready yet:
		// the client keeps trying in the background, provisioning waits.
		opts = append(opts, nats.RetryOnFailedConnect(true))
	}
	if url == "" {
		if l.srv, err = startEmbedded(cfg, logger); err != nil {
			return nil, err
		}
		opts = append(opts, nats.InProcessServer(l.srv))
		if cfg.InternalToken != "" {
			opts = append(opts, nats.Token(cfg.InternalToken))
		}
	}
	if l.nc, err = nats.Connect(url, opts...); err != nil {
		l.Close()
		return nil, fmt.Errorf("eventlog: connect: %w", err)
	}
	if l.js, err = jetstream.New(l.nc); err != nil {
		l.Close()
		return nil, fmt.Errorf("eventlog: jetstream: %w", err)
	}
	// Provisioning waits for the cluster: a quorum still forming or a
	// leader being elected is answered by a timeout, which only means
	// not yet (issue 26: a start that gave up after 5 s).
	waiting := cfg.Waiting
	if waiting == nil {
		waiting = func(what string, err error) {
			logger.Warn("not ready: waiting for the event log", "step", what, "err", err)
		}
	}
	if err := Retry(ctx, "eventlog: provision streams", provisionAttempt, waiting, l.provision); err != nil {
		l.Close()
		return nil, err
	}
	if cfg.GroupCommit {
		l.startGroupCommit()
	}
	return l, nil
}

// provisionAttempt bounds one attempt to provision the streams.
const provisionAttempt = 10 * time.Second

func (l *Log) provision(ctx context.Context) error {
	var err error
	l.stream, err = l.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        l.cfg.Stream,
		Description: "cmem event log: the only source of truth",
		Subjects:    []string{subjects.AllEvents},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Replicas:    l.cfg.Replicas,
		Duplicates:  l.cfg.DuplicateWindow,
		// AllowDirect stays off: direct gets may be served by a lagging
		// replica, and read fences must see every acknowledged revoke.
		AllowDirect: false,
		DenyDelete:  true,
		DenyPurge:   true,
		// Batches of commands are stored all or nothing (AppendAtomic).
		AllowAtomicPublish: true,
	})
	if err != nil {
		return fmt.Errorf("eventlog: provision %s: %w", l.cfg.Stream, err)
	}
	l.dlq, err = l.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        l.cfg.DeadLetterStream,
		Description: "cmem dead letters: events a consumer could not use, with the reason",
		Subjects:    []string{subjects.AllDeadLetters},
		Storage:     jetstream.FileStorage,
		Replicas:    l.cfg.Replicas,
		Duplicates:  l.cfg.DuplicateWindow,
	})
	if err != nil {
		return fmt.Errorf("eventlog: provision %s: %w", l.cfg.DeadLetterStream, err)
	}
	return nil
}

// Close drains the connection and stops the embedded server, if any.
func (l *Log) Close() {
	l.stopGroupCommit()
	if l.nc != nil {
		_ = l.nc.Drain()
		l.nc.Close()
	}
	if l.srv != nil {
		l.srv.Shutdown()
		l.srv.WaitForShutdown()
	}
}

// Conn is the underlying connection, for components that publish or
// subscribe on core NATS subjects.
func (l *Log) Conn() *nats.Conn { return l.nc }

// JetStream is the underlying JetStream context.
func (l *Log) JetStream() jetstream.JetStream { return l.js }

// StreamName is the name of the event stream.
func (l *Log) StreamName() string { return l.cfg.Stream }

// ClientURL is the URL applications connect to; for the embedded server it
// is the address it listens on.
func (l *Log) ClientURL() string {
	if l.srv != nil {
		return l.srv.ClientURL()
	}
	return withoutCredentials(l.nc.ConnectedUrl())
}

// withoutCredentials drops the userinfo of a NATS URL: a token sits in the
// user part, which url.URL.Redacted keeps.
func withoutCredentials(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable url)"
	}
	u.User = nil
	return u.String()
}

// ConnectURL is the URL another cmem process (a gateway or a worker role)
// uses to share this embedded server: it carries the internal token, so
// treat it as a secret.
func (l *Log) ConnectURL() string {
	if l.srv == nil || l.cfg.InternalToken == "" {
		return l.ClientURL()
	}
	u := l.srv.ClientURL()
	return strings.Replace(u, "nats://", "nats://"+l.cfg.InternalToken+"@", 1)
}

// Head returns the revision of the newest event whose envelope subject
// matches filter, a prefix such as "grants/" or an exact subject; "" means
// any event. It is 0 when there is none. The answer comes from the stream
// leader, so it includes every append that was acknowledged before the call.
func (l *Log) Head(ctx context.Context, filter string) (uint64, error) {
	headRequests.Inc()
	if filter == "" {
		info, err := retryLost(ctx, func(ctx context.Context) (*jetstream.StreamInfo, error) { return l.stream.Info(ctx) })
		if err != nil {
			return 0, fmt.Errorf("eventlog: stream info: %w", err)
		}
		return info.State.LastSeq, nil
	}
	prefix, under := strings.CutSuffix(filter, "/")
	subj := subjects.Event(prefix)
	if under {
		subj = subjects.EventsUnder(prefix)
	}
	m, err := retryLost(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) {
		return l.stream.GetLastMsgForSubject(ctx, subj)
	})
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("eventlog: last message on %s: %w", subj, err)
	}
	return m.Sequence, nil
}
