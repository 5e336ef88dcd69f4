package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/internal/tracing"
	"github.com/cmem/cmem/node"
)

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func run(args []string, role string, needsCluster bool) error {
	fs := flag.NewFlagSet(role, flag.ExitOnError)
	var ev envDefaults
	cfg := node.Config{Source: "cmem/" + role, Role: role}
	fs.StringVar(&cfg.DataDir, "data", env("CMEM_DATA", "./data"), "data directory (CMEM_DATA)")
	fs.StringVar(&cfg.HTTPAddr, "http", env("CMEM_HTTP_ADDR", "127.0.0.1:8080"), "HTTP listen address (CMEM_HTTP_ADDR)")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", env("CMEM_METRICS_ADDR", ""), "worker role: serve /metrics and /healthz here (CMEM_METRICS_ADDR); empty = none")
	fs.StringVar(&cfg.NATSURL, "nats", env("CMEM_NATS_URL", ""), "external NATS URL; empty runs the embedded server (CMEM_NATS_URL)")
	fs.IntVar(&cfg.NATSPort, "nats-port", ev.int("CMEM_NATS_PORT", 4222), "port of the embedded NATS server; -1 picks a free one (CMEM_NATS_PORT)")
	replicas, err := strconv.Atoi(env("CMEM_NATS_REPLICAS", "1"))
	if err != nil {
		return fmt.Errorf("CMEM_NATS_REPLICAS: %w", err)
	}
	fs.IntVar(&cfg.Replicas, "replicas", replicas, "replicas of cmem's streams on a NATS cluster (CMEM_NATS_REPLICAS)")
	fs.BoolVar(&cfg.NoRerank, "no-rerank", env("CMEM_RERANK", "on") == "off",
		"rank the shared tier of memory views by similarity alone, not by the retriever learned from the pool (CMEM_RERANK=off)")
	fs.BoolVar(&cfg.Plaintext, "plaintext", env("CMEM_ENCRYPTION", "on") == "off",
		"write content in clear, not sealed under its data subject's key (CMEM_ENCRYPTION=off); for measurements only")
	fs.StringVar(&cfg.DocumentRoot, "document-root", env("CMEM_DOCUMENT_ROOT", ""), "directory knowledge bases may name a server-side path in (CMEM_DOCUMENT_ROOT); empty refuses paths")
	fs.DurationVar(&cfg.ReadWait, "read-wait", ev.duration("CMEM_READ_WAIT", 5*time.Second), "how long a read waits for projections to be fresh enough (CMEM_READ_WAIT)")
	fs.StringVar(&cfg.WeaviateURL, "weaviate", env("CMEM_WEAVIATE_URL", ""), "Weaviate URL for the vector view; empty = in-process (CMEM_WEAVIATE_URL)")
	fs.StringVar(&cfg.WeaviateGRPC, "weaviate-grpc", env("CMEM_WEAVIATE_GRPC", ""), "Weaviate gRPC host:port for fast batch writes (CMEM_WEAVIATE_GRPC)")
	fs.StringVar(&cfg.WeaviateClass, "weaviate-class", env("CMEM_WEAVIATE_CLASS", ""), "Weaviate class of the fragments (CMEM_WEAVIATE_CLASS)")
	fs.StringVar(&cfg.OpenAIBaseURL, "openai-base-url", env("CMEM_OPENAI_BASE_URL", ""), "OpenAI-compatible API base URL; empty = offline provider (CMEM_OPENAI_BASE_URL)")
	fs.StringVar(&cfg.ChatModel, "chat-model", env("CMEM_CHAT_MODEL", ""), "chat model for the OpenAI provider (CMEM_CHAT_MODEL)")
	fs.StringVar(&cfg.EmbeddingModel, "embedding-model", env("CMEM_EMBEDDING_MODEL", ""), "embedding model for the OpenAI provider (CMEM_EMBEDDING_MODEL)")
	fs.StringVar(&cfg.Embedder, "embedder", env("CMEM_EMBEDDER", "semantic"), "offline embedder: semantic (word vectors in the binary) or hashing (CMEM_EMBEDDER)")
	dims, err := strconv.Atoi(env("CMEM_EMBEDDING_DIMS", "0"))
	if err != nil {
		return fmt.Errorf("CMEM_EMBEDDING_DIMS: %w", err)
	}
	fs.IntVar(&cfg.EmbeddingDims, "embedding-dims", dims, "embedding dimensions; 0 = the model's native size (CMEM_EMBEDDING_DIMS)")
	fs.DurationVar(&cfg.Workers.StageTimeout, "stage-timeout", ev.duration("CMEM_STAGE_TIMEOUT", 60*time.Second), "bound on one pipeline stage (worker roles) (CMEM_STAGE_TIMEOUT)")
	fs.DurationVar(&cfg.Workers.AckWait, "ack-wait", ev.duration("CMEM_ACK_WAIT", 0), "how soon another worker takes over a stage whose worker went silent (heartbeats every ack-wait/3); 0 = 5s (CMEM_ACK_WAIT)")
	fs.IntVar(&cfg.Workers.MaxRounds, "max-rounds", ev.int("CMEM_MAX_ROUNDS", 4), "coordinator rounds per query (CMEM_MAX_ROUNDS)")
	graphItems, err := strconv.Atoi(env("CMEM_GRAPH_ITEMS", "0"))
	if err != nil {
		return fmt.Errorf("CMEM_GRAPH_ITEMS: %w", err)
	}
	fs.IntVar(&cfg.Workers.GraphItems, "graph-items", graphItems, "graph-memory items (insights, past interactions) shown to an agent per turn; 0 = none (CMEM_GRAPH_ITEMS)")
	fs.IntVar(&cfg.QueryRetain, "query-retain", ev.int("CMEM_QUERY_RETAIN", 0), "finished queries kept in memory (older ones are read back from the log); 0 = 10000, negative = all (CMEM_QUERY_RETAIN)")
	fs.BoolVar(&cfg.Snapshots.Off, "snapshots-off", env("CMEM_SNAPSHOTS", "on") == "off",
		"neither start from a projection snapshot nor take one: every start replays the whole log (CMEM_SNAPSHOTS=off)")
	every, err := strconv.ParseInt(env("CMEM_SNAPSHOT_EVERY", "0"), 10, 64)
	if err != nil {
		return fmt.Errorf("CMEM_SNAPSHOT_EVERY: %w", err)
	}
	fs.Int64Var(&cfg.Snapshots.Every, "snapshot-every", every,
		"events between two projection snapshots (CMEM_SNAPSHOT_EVERY); 0 = 100000 (none on a gateway), negative = take none")
	period, err := time.ParseDuration(env("CMEM_SNAPSHOT_MIN_PERIOD", "0s"))
	if err != nil {
		return fmt.Errorf("CMEM_SNAPSHOT_MIN_PERIOD: %w", err)
	}
	fs.DurationVar(&cfg.Snapshots.MinPeriod, "snapshot-min-period", period, "least time between two projection snapshots (CMEM_SNAPSHOT_MIN_PERIOD); 0 = 5m")
	coverage := fs.Float64("coverage", ev.float("CMEM_COVERAGE", 0), "offline provider: memory score at which an agent answers from memory and calls no resource; 0 = provider default, above 1 = always call (CMEM_COVERAGE)")
	fs.StringVar(&cfg.Audit.DSN, "clickhouse", env("CMEM_CLICKHOUSE_DSN", ""), "ClickHouse audit trail, clickhouse://host:9000/db; empty = in-process (CMEM_CLICKHOUSE_DSN)")
	limits := fs.String("rate-limits", env("CMEM_RATE_LIMITS", ""), "per-caller limits over the defaults: off, or queries=PER_MIN:BURST,fragments=…,registrations=… (CMEM_RATE_LIMITS)")
	syncFlag := fs.String("nats-sync", env("CMEM_NATS_SYNC", "always"), "embedded server: fsync every write before it is acknowledged (always) or every interval, e.g. 1s (CMEM_NATS_SYNC)")
	level := fs.String("log-level", env("CMEM_LOG_LEVEL", "info"), "debug, info, warn or error (CMEM_LOG_LEVEL)")
	_ = fs.Parse(args)
	if err := ev.err(); err != nil {
		return err
	}
	cfg.Workers.Coverage = float32(*coverage)
	cfg.AdminToken = os.Getenv("CMEM_ADMIN_TOKEN")
	cfg.ServiceToken, cfg.ReaderToken = os.Getenv("CMEM_NATS_SERVICE_TOKEN"), os.Getenv("CMEM_NATS_READER_TOKEN")
	cfg.SecretsDir = os.Getenv("CMEM_SECRETS_DIR")
	if cfg.Gateway.Limits, err = gateway.ParseRateLimits(*limits); err != nil {
		return err
	}
	if *syncFlag != "always" {
		d, err := time.ParseDuration(*syncFlag)
		if err != nil || d <= 0 {
			return fmt.Errorf("nats-sync: want always or a positive duration, not %q", *syncFlag)
		}
		cfg.NATSSync = d
	}
	cfg.OpenAIAPIKey = os.Getenv("OPENAI_API_KEY")
	if needsCluster && cfg.NATSURL == "" {
		return errors.New(role + " needs a shared NATS cluster: set CMEM_NATS_URL or -nats")
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("log level: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// Traces are off unless the standard OTEL_* variables name an exporter.
	stopTracing, err := tracing.Setup(ctx, "cmem-"+role)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := stopTracing(sctx); err != nil {
			logger.Warn("flushing traces", "err", err)
		}
	}()
	n, err := node.Start(ctx, cfg, logger)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "cmem %s: http://%s  nats: %s  (admin token: %s)\n", role, n.Addr(), n.Log.ClientURL(), adminTokenHint(cfg))
	<-ctx.Done()
	logger.Info("shutting down: draining requests")
	n.Close()
	logger.Info("stopped cleanly")
	return nil
}

func adminTokenHint(cfg node.Config) string {
	if os.Getenv("CMEM_ADMIN_TOKEN") != "" {
		return "from CMEM_ADMIN_TOKEN"
	}
	return cfg.DataDir + "/" + node.AdminTokenFile
}
