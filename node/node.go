package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/cmem/cmem/access"
	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/projectors"
)

// Node is one running cmem process.
type Node struct {
	Log    *eventlog.Log
	Graph  *access.Graph
	Runner *projectors.Runner
	App    *app.App

	cfg      Config
	logger   *slog.Logger
	http     *http.Server
	listener net.Listener
	cancel   context.CancelFunc
	done     chan struct{}
}

// Start opens the log, rebuilds the projections from it, and serves HTTP.
// It returns once the projections have caught up with the log as it was at
// start, so the first request sees every event written before.
func Start(ctx context.Context, cfg Config, logger *slog.Logger) (*Node, error) {
	cfg.setDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.Default()
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("node: data dir: %w", err)
	}
	token, err := adminToken(cfg, logger)
	if err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, logger: logger, done: make(chan struct{})}
	n.Log, err = eventlog.Open(ctx, eventlog.Config{URL: cfg.NATSURL, DataDir: cfg.DataDir, Port: cfg.NATSPort}, logger)
	if err != nil {
		return nil, err
	}
	if err := n.startProjections(ctx); err != nil {
		n.Close()
		return nil, err
	}
	n.App, err = app.New(app.Config{AdminToken: token, ReadWait: cfg.ReadWait, Source: cfg.Source}, logAdapter{n.Log}, n.Graph, n.Runner)
	if err != nil {
		n.Close()
		return nil, err
	}
	api, err := gateway.New(gateway.DefaultConfig(), n.App, logger)
	if err != nil {
		n.Close()
		return nil, err
	}
	if n.listener, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		n.Close()
		return nil, fmt.Errorf("node: listen %s: %w", cfg.HTTPAddr, err)
	}
	n.http = &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := n.http.Serve(n.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("http server stopped", "err", err)
		}
	}()
	logger.Info("cmem ready", "http", "http://"+n.Addr(), "nats", n.Log.ClientURL(), "revision", n.Runner.Revision())
	return n, nil
}

func (n *Node) startProjections(ctx context.Context) error {
	n.Graph = access.NewGraph()
	var err error
	if n.Runner, err = projectors.NewRunner(n.Log, n.logger, n.Graph); err != nil {
		return err
	}
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		return err
	}
	rctx, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	go func() {
		defer close(n.done)
		_ = n.Runner.Run(rctx)
	}()
	start := time.Now()
	if err := n.Runner.WaitFor(ctx, head); err != nil {
		return fmt.Errorf("node: rebuild projections: %w", err)
	}
	elapsed := time.Since(start)
	rate := float64(head) / max(elapsed.Seconds(), 1e-9)
	n.logger.Info("projections rebuilt from the log", "events", head, "took", elapsed, "events_per_s", int(rate))
	return nil
}

// Addr is the address the HTTP API listens on.
func (n *Node) Addr() string { return n.listener.Addr().String() }

// Close drains HTTP requests in flight, stops the projections and closes
// the log, in that order, so that no accepted command is cut off.
func (n *Node) Close() {
	if n.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		_ = n.http.Shutdown(ctx)
		cancel()
	}
	if n.cancel != nil {
		n.cancel()
		<-n.done
	}
	if n.Log != nil {
		n.Log.Close()
	}
}

// logAdapter gives the use cases the log in their own terms.
type logAdapter struct{ l *eventlog.Log }

func (a logAdapter) Append(ctx context.Context, e events.Envelope, exclusive bool) (uint64, error) {
	var opts []eventlog.AppendOption
	if exclusive {
		opts = append(opts, eventlog.ExpectNew())
	}
	rev, err := a.l.Append(ctx, e, opts...)
	if errors.Is(err, eventlog.ErrSubjectTaken) {
		return 0, fmt.Errorf("%w: %s is already registered", app.ErrConflict, e.Subject)
	}
	return rev, err
}

func (a logAdapter) Head(ctx context.Context, filter string) (uint64, error) {
	return a.l.Head(ctx, filter)
}
