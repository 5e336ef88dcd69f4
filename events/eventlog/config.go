package eventlog

import (
	"cmp"
	"errors"
	"fmt"
	"time"
)

// Config configures the log. The zero value plus a DataDir runs an embedded
// server on 127.0.0.1:4222.
type Config struct {
	// URL of an external NATS cluster with JetStream; empty starts the
	// embedded server.
	URL string
	// DataDir holds the embedded server's JetStream files (DataDir/jetstream).
	DataDir string
	// Host and Port the embedded server listens on for applications that
	// publish onto the bus; Port -1 picks a free port (tests), 0 means 4222.
	Host string
	Port int
	// Stream and DeadLetterStream name the two streams.
	Stream           string
	DeadLetterStream string
	// Replicas of both streams on a cluster (1 on the embedded server).
	Replicas int
	// DuplicateWindow is how long JetStream remembers event ids to drop
	// republished events; a retry of an append must fall inside it.
	DuplicateWindow time.Duration
	// Name is the NATS connection name, visible in server monitoring.
	Name string
	// InternalToken, when set, turns on authentication on the embedded
	// server: cmem's own connections present it, every other client is
	// asked of Authorizer. Both are ignored for an external cluster, whose
	// operator configures accounts and permissions (see deploy/).
	InternalToken string
	Authorizer    Authorizer
	// SyncInterval is how often the embedded server fsyncs JetStream
	// writes. 0 (the default) fsyncs every write before it is
	// acknowledged (nats-server's sync_interval: always), so an
	// acknowledged event survives a power loss; a positive interval trades
	// that for throughput: an acknowledged write may be lost if the machine
	// (not only the process) fails within it. Ignored for an external
	// cluster, whose operator sets sync_interval (deploy/nats.conf).
	SyncInterval time.Duration
	// GroupCommit sends appends without an expectation that are made at
	// the same time to the leader as one atomic batch (one request, and
	// one fsync where every write is synced), each still answered with
	// its own revision. It pays where the server syncs every write; where
	// it does not, the server's staging of each batch costs more than the
	// requests it saves (measured: BenchmarkCommands in package node).
	GroupCommit bool
	// Waiting is told, before each retry, why Open is still waiting for
	// the cluster (no quorum yet, no server listening); nil logs a
	// warning each time.
	Waiting Waiting
}

// DefaultStream is the event stream's name unless Config.Stream says
// otherwise.
const DefaultStream = "CMEM_EVENTS"

// WithDefaults returns c with its zero fields filled: Host 127.0.0.1, Port
// 4222, Stream DefaultStream, DeadLetterStream CMEM_DEADLETTER, Replicas
// 1, DuplicateWindow 10m, Name "cmem".
func (c Config) WithDefaults() Config {
	c.Host = cmp.Or(c.Host, "127.0.0.1")
	c.Port = cmp.Or(c.Port, 4222)
	c.Stream = cmp.Or(c.Stream, DefaultStream)
	c.DeadLetterStream = cmp.Or(c.DeadLetterStream, "CMEM_DEADLETTER")
	c.Replicas = cmp.Or(c.Replicas, 1)
	c.DuplicateWindow = cmp.Or(c.DuplicateWindow, 10*time.Minute)
	c.Name = cmp.Or(c.Name, "cmem")
	return c
}

// Validate reports every problem with c at once, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.URL == "" && c.DataDir == "" {
		errs = append(errs, errors.New("eventlog: DataDir is required for the embedded server"))
	}
	if c.Replicas < 0 || c.Replicas > 5 {
		errs = append(errs, fmt.Errorf("eventlog: Replicas %d out of range 1..5", c.Replicas))
	}
	if c.URL == "" && c.Replicas > 1 {
		errs = append(errs, fmt.Errorf("eventlog: Replicas %d: the embedded server holds one replica", c.Replicas))
	}
	if c.SyncInterval < 0 {
		errs = append(errs, errors.New("eventlog: SyncInterval must not be negative"))
	}
	if c.DuplicateWindow < 0 {
		errs = append(errs, errors.New("eventlog: DuplicateWindow must not be negative"))
	}
	if c.Port < -1 || c.Port > 65535 {
		errs = append(errs, fmt.Errorf("eventlog: Port %d out of range", c.Port))
	}
	return errors.Join(errs...)
}
