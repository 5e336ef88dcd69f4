package node

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/graphmem"
	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/resources"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/workers"
)

// Config is everything a node needs; cmd/cmem fills it from flags and CMEM_*
// environment variables.
//
// Every configuration type in cmem follows one idiom, this one included:
// WithDefaults (value receiver) returns a copy with the zero fields
// filled, never mutates its receiver, and changes nothing when applied
// twice; Validate reports every problem at once (errors.Join, each message
// naming the package and the field) and judges the configuration with its
// defaults filled, so a zero field is never wrong by itself; and the
// constructor does c = c.WithDefaults() and then c.Validate(). A type
// without defaults (app.Config, mcp.Config) has Validate only. A
// configuration nested in another (Workers, Gateway, Snapshots, …) keeps
// its zero fields here: the constructor that takes it fills them.
type Config struct {
	// Role is what this process runs: RoleServe (everything), RoleGateway
	// (HTTP and NATS ingress) or RoleWorker (the pipeline's workers). Every
	// role keeps the in-memory projections it reads.
	Role string

	DataDir  string // CMEM_DATA
	HTTPAddr string // CMEM_HTTP_ADDR; "127.0.0.1:0" picks a free port
	// MetricsAddr is where a worker (which serves no API) answers /metrics
	// and /healthz (CMEM_METRICS_ADDR); empty serves nothing.
	MetricsAddr string
	NATSURL     string // CMEM_NATS_URL; empty runs the embedded server
	NATSPort    int    // embedded server port; -1 picks a free port
	Replicas    int    // stream replicas on a cluster (CMEM_NATS_REPLICAS); the embedded server keeps 1
	AdminToken  string // CMEM_ADMIN_TOKEN; empty reads or creates DataDir/admin.token
	// QueryRetain is how many finished queries stay in memory (besides
	// every unfinished one); older ones are rebuilt from the log when asked
	// for. 0 = DefaultQueryRetain; negative keeps all.
	QueryRetain int
	// ServiceToken is the embedded server's credential for cmem's own
	// connections (CMEM_NATS_SERVICE_TOKEN; empty reads or creates
	// DataDir/nats-service.token). ReaderToken is its read-only
	// event-stream credential (CMEM_NATS_READER_TOKEN; empty reads or
	// creates DataDir/nats-reader.token). Both unused with NATSURL.
	ServiceToken string
	ReaderToken  string
	// NATSSync is the embedded server's fsync interval (CMEM_NATS_SYNC,
	// "always" or a duration); 0 = always, every write on disk before it
	// is acknowledged.
	NATSSync time.Duration
	ReadWait time.Duration // bound on waiting for a projection to be fresh enough
	Source   string        // names this process in the events it writes
	// Plaintext turns crypto-shredding off (CMEM_ENCRYPTION=off): new
	// content is written in clear and cannot be erased from the log. It
	// exists to measure what sealing costs; leave it false.
	Plaintext bool

	WeaviateURL   string // CMEM_WEAVIATE_URL; empty = the in-process vector view
	WeaviateGRPC  string // CMEM_WEAVIATE_GRPC host:port; batches use gRPC when set
	WeaviateClass string // CMEM_WEAVIATE_CLASS; default CmemFragment

	OpenAIBaseURL  string // CMEM_OPENAI_BASE_URL; empty = offline provider and hashing embedder
	OpenAIAPIKey   string // OPENAI_API_KEY
	ChatModel      string // CMEM_CHAT_MODEL
	EmbeddingModel string // CMEM_EMBEDDING_MODEL
	EmbeddingDims  int    // CMEM_EMBEDDING_DIMS; 0 = the model's native size
	// Embedder is the offline embedder (CMEM_EMBEDDER): "semantic" (the
	// default, word vectors in the binary) or "hashing". A view built with
	// one is rebuilt with the other on restart.
	Embedder string
	// NoRerank turns the learned retriever off (CMEM_RERANK=off): memory
	// views rank the shared tier by similarity alone. It is on by default;
	// it learns only from fragments an admission gate admitted, so without
	// a gate it changes nothing.
	NoRerank bool

	Workers workers.Config // pipeline tuning; zero fields take defaults
	// GraphMemory tunes graph memory (package graphmem); zero fields take
	// defaults. Agents are shown it when Workers.GraphItems > 0.
	GraphMemory graphmem.Config

	// ProjectionGate, when set, is called before the in-memory projections
	// apply each event; an error stops them. Tests use it to hold a
	// projection back and show that reads wait for it (it is no knob for
	// production).
	ProjectionGate func(ctx context.Context, m eventlog.Msg) error

	// WrapStore, when set, wraps the vector view's store. Tests use it to
	// put a deliberately leaky store in and show that the app's own
	// re-check drops what it leaks (no knob for production).
	WrapStore func(vectors.Store) vectors.Store

	// Gateway tunes the HTTP API (timeouts, body limit, rate limits); zero
	// fields take gateway.DefaultConfig's.
	Gateway gateway.Config

	// DocumentRoot is the only directory knowledge bases registered with a
	// server-side "path" may read (CMEM_DOCUMENT_ROOT); empty refuses paths.
	DocumentRoot string
	// SecretsDir holds the files http resource headers may reference with
	// {"file": "name"} (CMEM_SECRETS_DIR); empty refuses file references.
	SecretsDir string

	// Snapshots says when this process checkpoints its projections and
	// whether it starts from the newest checkpoint (CMEM_SNAPSHOTS,
	// CMEM_SNAPSHOT_EVERY, CMEM_SNAPSHOT_MIN_PERIOD). A gateway takes none
	// unless Snapshots.Every is set: workers (and serve) write them, every
	// role starts from them.
	Snapshots snapshot.Config

	// Audit configures the ClickHouse audit trail (Audit.DSN is
	// CMEM_CLICKHOUSE_DSN); an empty DSN serves /v1/audit from the
	// in-process history.
	Audit clickhouse.Config
}

// Roles.
const (
	RoleServe   = "serve"
	RoleGateway = "gateway"
	RoleWorker  = "worker"
)

func (c Config) serves() bool { return c.Role != RoleWorker }
func (c Config) works() bool  { return c.Role != RoleGateway }

// WithDefaults returns c with its zero fields filled: Role serve, HTTPAddr
// 127.0.0.1:8080, ReadWait 5s, QueryRetain DefaultQueryRetain, Source
// cmem/serve.
func (c Config) WithDefaults() Config {
	c.Role = cmp.Or(c.Role, RoleServe)
	c.HTTPAddr = cmp.Or(c.HTTPAddr, "127.0.0.1:8080")
	c.ReadWait = cmp.Or(c.ReadWait, 5*time.Second)
	c.QueryRetain = cmp.Or(c.QueryRetain, DefaultQueryRetain)
	c.Source = cmp.Or(c.Source, "cmem/serve")
	return c
}

// DefaultQueryRetain is how many finished queries a process keeps in memory
// unless configured otherwise.
const DefaultQueryRetain = 10_000

// Validate reports every problem with c, its defaults filled, and with
// the snapshot and audit settings it carries.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, errors.New("node: DataDir (CMEM_DATA) is required"))
	}
	if c.Role != RoleServe && c.Role != RoleGateway && c.Role != RoleWorker {
		errs = append(errs, errors.New("node: Role must be serve, gateway or worker"))
	}
	if c.Embedder != "" && c.Embedder != EmbedderSemantic && c.Embedder != EmbedderHashing {
		errs = append(errs, errors.New("node: Embedder (CMEM_EMBEDDER) must be semantic or hashing"))
	}
	if c.ReadWait < 0 {
		errs = append(errs, errors.New("node: ReadWait must not be negative"))
	}
	if err := c.Snapshots.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Audit.DSN != "" {
		if err := c.Audit.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c Config) resources() resources.Options {
	return resources.Options{DocumentRoot: c.DocumentRoot, SecretsDir: c.SecretsDir}
}
