package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/feed"
	"github.com/cmem/cmem/projectors/graphmem"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/projectors/rerank"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/shred"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/workers"
)

// Node is one running cmem process.
type Node struct {
	Log       *eventlog.Log
	Graph     *access.Graph
	Policies  *memory.Policies
	Fragments *memory.Fragments
	Store     vectors.Store
	Embedder  embedding.Embedder
	LLM       llm.Provider
	// Runner feeds the in-memory projections; ViewRunner the vector view
	// (the same runner when the view is in-process).
	Runner     *projectors.Runner
	ViewRunner *projectors.Runner
	// ViewResumedFrom is the revision an external vector view was complete
	// up to at start (0: rebuilt from the log).
	ViewResumedFrom uint64
	Queries         *query.Projection
	// GraphMemory is graph memory (paper 003), fed by the core runner.
	GraphMemory *graphmem.Projection
	// Feed is the live event feed the console streams (last in the core
	// runner, so every other projection has applied an event before it
	// is streamed).
	Feed     *feed.Feed
	App      *app.App
	Pipeline *workers.Pipeline
	// Audit is the audit trail: the in-process history, and ClickHouse
	// with its projector when configured.
	Audit *clickhouse.Trail
	// Keys holds the data keys content is sealed under; nil with
	// Config.Plaintext.
	Keys *shred.Keyring
	// Snapshots takes projection snapshots (nil when this process takes
	// none); RestoredFrom is the revision of the snapshot the projections
	// started from (0: rebuilt from the whole log).
	Snapshots    *snapshot.Writer
	RestoredFrom uint64
	// Rerank is the retriever that learns from the shared pool (nil with
	// Config.NoRerank).
	Rerank *rerank.Model

	cfg     Config
	logger  *slog.Logger
	token   string
	service string // the embedded server's service credential
	reader  string // the embedded server's read-only event-stream credential
	bus     *busAuth
	ready   *readiness
	// viewLease and auditLease make this process, while it holds them,
	// the one writer of the Weaviate class and the ClickHouse tables (nil:
	// no such store).
	viewLease, auditLease *eventlog.Lease
	handler               http.Handler // what the address serves once ready
	http                  *http.Server
	listener              net.Listener
	ingress               *gateway.NATSIngress
	// guardSub closes stale bus connections (busguard.go).
	guardSub *nats.Subscription
	readers  *gateway.ReaderAPI
	// stopWorkers ends the worker router's supervisor; workersDone closes
	// once it returned (nil without workers).
	stopWorkers context.CancelFunc
	workersDone chan struct{}
	cancel      context.CancelFunc
	wg          sync.WaitGroup
}

// Start opens the log, rebuilds the projections from it, and serves HTTP.
// It returns once the in-memory projections have caught up with the log as
// it was at start, so the first request sees every event written before.
//
// Start waits for what it depends on (the NATS cluster and its quorum, the
// data-key bucket, Weaviate, ClickHouse) with backoff until ctx ends,
// logging each retry; meanwhile its address, when it has one, already
// listens and answers GET /healthz with 503 and the reason it is not ready.
// Only a configuration error returns at once.
func Start(ctx context.Context, cfg Config, logger *slog.Logger) (*Node, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logger = cmp.Or(logger, slog.Default())
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("node: data dir: %w", err)
	}
	token, err := adminToken(cfg, logger)
	if err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, logger: logger, token: token, ready: newReadiness()}
	if cfg.NATSURL == "" { // the embedded server's own credentials
		if n.service, err = tokenFile(cfg.ServiceToken, filepath.Join(cfg.DataDir, ServiceTokenFile), "NATS service token", logger); err != nil {
			return nil, err
		}
		if n.reader, err = tokenFile(cfg.ReaderToken, filepath.Join(cfg.DataDir, ReaderTokenFile), "NATS reader token", logger); err != nil {
			return nil, err
		}
	}
	if err := n.listenEarly(); err != nil {
		return nil, err
	}
	if err := n.open(ctx); err != nil {
		n.Close()
		return nil, err
	}
	if err := n.startProjections(ctx); err != nil {
		n.Close()
		return nil, err
	}
	n.ready.set("starting the API")
	archive, err := newQueryArchive(n.Log, cfg.ReadWait)
	if err != nil {
		n.Close()
		return nil, err
	}
	n.App, err = app.New(app.Config{AdminToken: token, ReadWait: cfg.ReadWait, Source: cfg.Source, Resources: cfg.resources()}, app.Deps{
		Log: logAdapter{n.Log}, Access: n.Graph, Fresh: n.Runner, Policies: n.Policies, Fragments: n.Fragments,
		Store: n.Store, ViewFresh: n.ViewRunner, Embedder: n.Embedder, LLM: n.LLM, Queries: n.Queries, Archive: archive,
		Feed: n.Feed,
		Keys: n.shredder(), Graph: n.GraphMemory, Reranker: n.reranker(),
	})
	if err == nil {
		n.bus.app.Store(n.App) // from now on bus connects fence on users/ like HTTP requests
	}
	if err == nil && cfg.serves() {
		err = n.serve()
	}
	if err == nil && cfg.works() {
		err = n.startWorkers(ctx)
	}
	if err == nil && cfg.works() {
		err = n.startExpirer()
	}
	if err == nil && !cfg.serves() && cfg.MetricsAddr != "" {
		err = n.serveMetrics()
	}
	if err == nil {
		err = n.watchTokens()
	}
	if err != nil {
		n.Close()
		return nil, err
	}
	if n.handler != nil {
		n.ready.serve(n.handler)
	}
	logger.Info("cmem ready", "role", cfg.Role, "http", n.Addr(), "nats", n.Log.ClientURL(), "revision", n.Runner.Revision(),
		"embedder", n.Embedder.Model(), "llm", n.LLM.Name())
	return n, nil
}

// open connects the log and builds the components the configuration names.
func (n *Node) open(ctx context.Context) error {
	var err error
	cfg := n.cfg
	n.Graph, n.Policies, n.Fragments, n.Queries = access.NewGraph(), memory.NewPolicies(), memory.NewFragments(), query.NewBoundedProjection(cfg.QueryRetain)
	n.bus = &busAuth{g: n.Graph, reader: n.reader, stream: eventlog.DefaultStream, durables: workerDurables(cfg.Workers.Group)}
	n.ready.set("waiting for the event log")
	n.Log, err = eventlog.Open(ctx, eventlog.Config{URL: cfg.NATSURL, DataDir: cfg.DataDir, Port: cfg.NATSPort, Replicas: cfg.Replicas, SyncInterval: cfg.NATSSync,
		// Group commit pays where every write is synced (see eventlog.Config).
		GroupCommit:   cfg.NATSURL == "" && cfg.NATSSync == 0,
		InternalToken: n.service, Authorizer: n.bus, Waiting: n.waiting}, n.logger)
	if err != nil {
		return err
	}
	if !cfg.Plaintext {
		err = n.step(ctx, "the data-key bucket "+shred.Bucket, func(ctx context.Context) (err error) {
			n.Keys, err = shred.OpenKeyring(ctx, n.Log.JetStream(), shred.Bucket, cfg.Replicas, n.logger)
			return err
		})
		if err != nil {
			return err
		}
		n.Log.SetSealer(shred.NewSealer(n.Keys))
	}
	if n.Embedder, err = newEmbedder(cfg); err != nil {
		return err
	}
	if n.LLM, err = newProvider(cfg, n.Embedder, n.Graph.UserIDs, n.logger); err != nil {
		return err
	}
	// Every model and embedding call (and the tools an agent calls) is a
	// span and a latency observation.
	n.Embedder, n.LLM = embedding.Traced{Next: n.Embedder}, llm.Traced{Next: n.LLM}
	var external bool
	err = n.step(ctx, "the vector store", func(ctx context.Context) (err error) {
		n.Store, external, err = newStore(ctx, cfg, n.Embedder.Dims())
		return err
	})
	if err != nil {
		return err
	}
	// A store with files of its own holds fragment text sealed, so that
	// destroying a key erases it there too (see shred.SealedStore).
	if ds, ok := n.Store.(shred.DurableStore); ok && external && n.Keys != nil {
		n.Store = shred.SealStore(ds, n.Keys)
	}
	if cfg.WrapStore != nil {
		n.Store = cfg.WrapStore(n.Store)
	}
	if err := n.leaseStores(ctx, external); err != nil {
		return err
	}
	if !cfg.NoRerank {
		n.Rerank, err = rerank.New(rerank.Config{})
	}
	return err
}

func (n *Node) startProjections(ctx context.Context) error {
	view := memory.NewViewProjection("vector-view", n.Store, n.Embedder)
	err := n.step(ctx, "the audit store", func(context.Context) (err error) {
		n.Audit, err = clickhouse.NewTrail(n.cfg.Audit, n.Graph, n.Log, n.cfg.ReadWait, n.logger)
		return err
	})
	if err != nil {
		return err
	}
	// The audit history answers with the graph, so it comes after it.
	n.Feed = feed.New(0)
	if n.GraphMemory, err = newGraphMemory(n.cfg, n.Embedder); err != nil {
		return err
	}
	core := []projectors.Projection{n.Graph, n.Policies, n.Fragments, n.Queries, n.GraphMemory, n.Audit.History}
	if n.Rerank != nil {
		core = append(core, n.Rerank)
	}
	external := n.cfg.WeaviateURL != ""
	if !external {
		core = append(core, view)
	}
	core = append(core, n.Feed)
	var src projectors.Source = n.Log
	if n.cfg.ProjectionGate != nil {
		src = gatedSource{n.Log, n.cfg.ProjectionGate}
	}
	if n.Runner, err = projectors.NewRunner(src, n.logger, core...); err != nil {
		return err
	}
	n.ViewRunner = n.Runner
	if err := n.startFromSnapshot(ctx, core); err != nil {
		return err
	}
	runners := []*projectors.Runner{n.Runner}
	if external {
		// An external store indexes slowly; it gets its own runner so that
		// the access graph never waits on it.
		if n.ViewRunner, err = projectors.NewRunner(n.Log, n.logger, view); err != nil {
			return err
		}
		n.ViewRunner.Named("view")
		var from uint64
		err := n.step(ctx, "the vector store's checkpoint", func(ctx context.Context) (err error) {
			from, err = view.Resume(ctx, func(ctx context.Context) (uint64, error) { return n.Log.Head(ctx, "") })
			return err
		})
		if err != nil {
			return err
		}
		n.ViewRunner.StartAfter(from)
		n.ViewResumedFrom = from
		n.logger.Info("vector view resumes", "after_revision", from)
		runners = append(runners, n.ViewRunner)
	}
	rctx, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	for _, r := range runners {
		n.wg.Add(1)
		go func() {
			defer n.wg.Done()
			_ = r.Run(rctx)
		}()
	}
	// The ClickHouse projector follows the log on its own, in the process
	// that holds its lease: nothing waits on it.
	n.wg.Add(2)
	go func() {
		defer n.wg.Done()
		var lease clickhouse.Lease
		if n.auditLease != nil {
			lease = n.auditLease
		}
		n.Audit.RunLeased(rctx, lease)
	}()
	go func() {
		defer n.wg.Done()
		holdLease(rctx, n.viewLease)
	}()
	var head uint64
	err = n.step(ctx, "the event log's head", func(ctx context.Context) (err error) {
		head, err = n.Log.Head(ctx, "")
		return err
	})
	if err != nil {
		return err
	}
	n.ready.set(fmt.Sprintf("rebuilding projections up to revision %d", head))
	start := time.Now()
	if err := n.rebuild(ctx, head); err != nil {
		return err
	}
	elapsed := time.Since(start)
	n.logger.Info("projections rebuilt from the log", "events", head-n.RestoredFrom, "after_snapshot", n.RestoredFrom,
		"took", elapsed, "events_per_s", int(float64(head-n.RestoredFrom)/max(elapsed.Seconds(), 1e-9)))
	return nil
}

// serve starts the HTTP API and the NATS ingress.
func (n *Node) serve() error {
	var err error
	var guard []gateway.IngressOption
	if n.cfg.NATSURL == "" {
		guard = append(guard, gateway.GuardTokens(n.closeStale)) // busguard.go
	}
	if n.ingress, err = gateway.StartNATSIngress(n.Log.Conn(), n.App, n.cfg.Gateway.WithDefaults().Limits.IngressRate(), n.logger, guard...); err != nil {
		return err
	}
	if n.readers, err = gateway.StartReaderAPI(n.Log.Conn(), n.Log.StreamName(), workerDurables(n.cfg.Workers.Group), n.logger); err != nil {
		return err
	}
	return n.serveHTTP()
}

func (n *Node) serveHTTP() error {
	gcfg := n.cfg.Gateway.WithDefaults()
	gcfg.Audit = n.Audit.Service
	api, err := gateway.New(gcfg, n.App, n.logger)
	if err != nil {
		return err
	}
	// The server listens since the start (listenEarly): from now on the
	// API answers.
	n.http.RegisterOnShutdown(api.CloseStreams)
	n.handler = api.HTTPServer().Handler
	return nil
}

// listenEarly listens on the process's address (the API's, or a worker's
// metrics address) before anything else, so that a start that waits for
// its dependencies answers /healthz with the reason (see readiness).
func (n *Node) listenEarly() error {
	addr := n.cfg.HTTPAddr
	if !n.cfg.serves() {
		addr = n.cfg.MetricsAddr
	}
	if addr == "" {
		return nil
	}
	// The API's own server settings (gateway.Server.HTTPServer), which
	// the handler it hands over to expects.
	g := n.cfg.Gateway.WithDefaults()
	return n.listen(addr, &http.Server{Handler: n.ready, ReadHeaderTimeout: min(10*time.Second, g.ReadTimeout),
		ReadTimeout: g.ReadTimeout, WriteTimeout: g.WriteTimeout, IdleTimeout: g.IdleTimeout,
		ErrorLog: slog.NewLogLogger(n.logger.Handler(), slog.LevelDebug)})
}

// listen runs srv on addr until Close.
func (n *Node) listen(addr string, srv *http.Server) error {
	var err error
	if n.listener, err = net.Listen("tcp", addr); err != nil {
		return fmt.Errorf("node: listen %s: %w", addr, err)
	}
	n.http = srv
	go func() {
		if err := n.http.Serve(n.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			n.logger.Error("http server stopped", "err", err)
		}
	}()
	return nil
}

// Addr is the address the HTTP API listens on ("" for a worker).
func (n *Node) Addr() string {
	if n.listener == nil {
		return ""
	}
	return n.listener.Addr().String()
}

// shredder is the keyring as the use cases see it: a nil interface, not a
// nil pointer, when content is written in clear.
func (n *Node) shredder() app.Shredder {
	if n.Keys == nil {
		return nil
	}
	return n.Keys
}

// Close drains HTTP requests in flight, stops the projections and closes
// the log, in that order, so that no accepted command is cut off.
func (n *Node) Close() {
	if n.guardSub != nil {
		_ = n.guardSub.Unsubscribe()
	}
	if n.ingress != nil {
		_ = n.ingress.Close()
	}
	if n.readers != nil {
		_ = n.readers.Close()
	}
	if n.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		_ = n.http.Shutdown(ctx)
		cancel()
	}
	if n.stopWorkers != nil {
		n.stopWorkers() // the router closes: it waits for stages in flight, up to StageTimeout
		<-n.workersDone
	}
	if n.cancel != nil {
		n.cancel()
		n.wg.Wait()
	}
	if n.Snapshots != nil {
		n.Snapshots.Wait()
	}
	if n.Audit != nil {
		n.Audit.Close()
	}
	if n.Store != nil {
		_ = n.Store.Close()
	}
	if n.Keys != nil {
		n.Keys.Close()
	}
	if n.Log != nil {
		n.Log.Close()
	}
}
