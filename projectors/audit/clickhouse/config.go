package clickhouse

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	chgo "github.com/ClickHouse/clickhouse-go/v2"
)

// Config configures the ClickHouse audit trail. Only DSN is required; the
// rest has defaults that keep a 2-core machine near ClickHouse's own batch
// insert rate without holding events back for long on a quiet log.
type Config struct {
	// DSN is a clickhouse-go URL on the native protocol,
	// clickhouse://[user:password@]host:9000/database (CMEM_CLICKHOUSE_DSN).
	// The database is created if it is missing.
	DSN string
	// BatchSize is the most events written in one flush.
	BatchSize int
	// FlushInterval is the longest an event waits in a partial batch: a
	// quiet log still reaches ClickHouse within it, and a busy one is
	// written in full batches.
	FlushInterval time.Duration
	// WriteTimeout bounds one flush, so a hung server is noticed and retried.
	WriteTimeout time.Duration
	// RetryMin and RetryMax bound the backoff between attempts while
	// ClickHouse is unreachable.
	RetryMin, RetryMax time.Duration
	// LagInterval is how often the lag gauge compares the log head with
	// what ClickHouse holds.
	LagInterval time.Duration
}

const (
	defaultBatchSize     = 5000
	defaultFlushInterval = 250 * time.Millisecond
)

// WithDefaults returns c with every unset field at its default.
func (c Config) WithDefaults() Config {
	if c.BatchSize == 0 {
		c.BatchSize = defaultBatchSize
	}
	if c.FlushInterval == 0 {
		c.FlushInterval = defaultFlushInterval
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = 30 * time.Second
	}
	if c.RetryMin == 0 {
		c.RetryMin = 200 * time.Millisecond
	}
	if c.RetryMax == 0 {
		c.RetryMax = 10 * time.Second
	}
	if c.LagInterval == 0 {
		c.LagInterval = time.Second
	}
	return c
}

var databaseName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// Validate reports every problem with c at once, its defaults filled: zero
// durations and sizes are valid (they mean the default); negative ones are
// not.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if _, err := parseDSN(c.DSN); err != nil {
		errs = append(errs, err)
	}
	if c.BatchSize < 0 || c.BatchSize > 1_000_000 {
		errs = append(errs, fmt.Errorf("audit: BatchSize %d out of range 1..1000000", c.BatchSize))
	}
	for name, d := range map[string]time.Duration{
		"FlushInterval": c.FlushInterval, "WriteTimeout": c.WriteTimeout,
		"RetryMin": c.RetryMin, "RetryMax": c.RetryMax, "LagInterval": c.LagInterval,
	} {
		if d < 0 {
			errs = append(errs, fmt.Errorf("audit: %s must not be negative", name))
		}
	}
	if c.RetryMin > 0 && c.RetryMax > 0 && c.RetryMax < c.RetryMin {
		errs = append(errs, errors.New("audit: RetryMax must not be below RetryMin"))
	}
	return errors.Join(errs...)
}

// parseDSN checks the DSN and returns the driver options it stands for.
// Only the native protocol is accepted: it is the one every ClickHouse
// release since 18.16 speaks with clickhouse-go.
func parseDSN(dsn string) (*chgo.Options, error) {
	if dsn == "" {
		return nil, errors.New("audit: DSN is required (clickhouse://host:9000/database)")
	}
	if !strings.HasPrefix(dsn, "clickhouse://") {
		return nil, fmt.Errorf("audit: DSN must start with clickhouse:// (the native protocol), got %q", redact(dsn))
	}
	opts, err := chgo.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("audit: DSN: %w", err)
	}
	if !databaseName.MatchString(opts.Auth.Database) {
		return nil, fmt.Errorf("audit: DSN must name a database matching %s, got %q", databaseName, opts.Auth.Database)
	}
	return opts, nil
}

// redact hides a password in a DSN for error messages.
func redact(dsn string) string {
	at := strings.LastIndex(dsn, "@")
	scheme := strings.Index(dsn, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return dsn
	}
	return dsn[:scheme+3] + "***" + dsn[at:]
}
