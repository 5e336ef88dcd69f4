package weaviate

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"regexp"
	"time"
)

// Config configures a Store. Zero fields take the defaults below; URL and
// Dims are required.
type Config struct {
	// URL is Weaviate's REST endpoint, such as http://127.0.0.1:8080.
	URL string
	// GRPCAddr is host:port of Weaviate's gRPC endpoint (GRPC_PORT,
	// 50051 by default). Batches and searches use it when set: it is
	// several times faster than REST for vectors, and a search skips
	// GraphQL's text round trip. Empty means REST and GraphQL only.
	GRPCAddr string
	// Class is the Weaviate class (collection) of the fragments.
	Class string
	// Dims is the vector dimension; vectors of another length are
	// rejected with vectors.ErrDimension before they reach the server.
	Dims int
	// BatchSize is the number of objects per batch request.
	BatchSize int
	// RequestTimeout bounds each request to Weaviate.
	RequestTimeout time.Duration
	// StartupTimeout bounds how long Open waits for Weaviate to be ready.
	StartupTimeout time.Duration
	// FlatSearchCutoff is the class's flatSearchCutoff: filtered searches
	// whose allow-list is smaller are exact scans. 0 keeps Weaviate's
	// default (40000); it only applies when Open creates the class.
	FlatSearchCutoff int
	// MaxResults is the server's QUERY_MAXIMUM_RESULTS; Search never asks
	// for more.
	MaxResults int
	// ExclusionFilter turns reader labels off: every search then pushes
	// the exclusion lists down (the filter Weaviate resolves into an
	// allow-list on every query). By default a search filters on one
	// label of its reader class (tier, user, allowed sets) once the class
	// is materialised, and on the exclusion lists until then (labels.go):
	// at 10k fragments 0.64× the unfiltered query's p50 against 1.63× for
	// the exclusion filter, side by side in one run (2026-11-29).
	// Labels are computed from the registry of the process that writes,
	// persisted with the class so that a restarted writer keeps them and
	// other processes read them; a Store with them off forgets the
	// persisted registry before its first write.
	ExclusionFilter bool
	// Shared says the class is written by whichever process holds a
	// lease (Leased attaches it): this Store materialises labels only
	// while it holds the lease, and otherwise searches through the
	// labels the persisted registry calls ready (shared.go). Without
	// it, the Store is the class's only writer.
	Shared bool
	// MaxReaderClasses bounds the registry of reader classes; the least
	// recently searched are evicted beyond it.
	MaxReaderClasses int
	// ReaderClassIdle is how long a reader class stays registered without
	// a search through it.
	ReaderClassIdle time.Duration
	// Logger receives warnings; nil uses slog.Default().
	Logger *slog.Logger
}

// Defaults.
const (
	DefaultClass          = "CmemFragment"
	DefaultBatchSize      = 256
	DefaultRequestTimeout = 30 * time.Second
	DefaultStartupTimeout = 30 * time.Second
	DefaultMaxResults     = 10000
	// DefaultMaxReaderClasses keeps the labels per object few: an object
	// carries one per class that admits it.
	DefaultMaxReaderClasses = 1024
	DefaultReaderClassIdle  = time.Hour
)

// WithDefaults returns c with its zero fields filled from the Default*
// constants; a nil Logger becomes slog.Default().
func (c Config) WithDefaults() Config {
	c.Class = cmp.Or(c.Class, DefaultClass)
	c.BatchSize = cmp.Or(c.BatchSize, DefaultBatchSize)
	c.RequestTimeout = cmp.Or(c.RequestTimeout, DefaultRequestTimeout)
	c.StartupTimeout = cmp.Or(c.StartupTimeout, DefaultStartupTimeout)
	c.MaxResults = cmp.Or(c.MaxResults, DefaultMaxResults)
	c.MaxReaderClasses = cmp.Or(c.MaxReaderClasses, DefaultMaxReaderClasses)
	c.ReaderClassIdle = cmp.Or(c.ReaderClassIdle, DefaultReaderClassIdle)
	c.Logger = cmp.Or(c.Logger, slog.Default())
	return c
}

// Weaviate capitalises the first letter of a class name and allows only
// these characters; refusing others here avoids a silent rename.
var classPattern = regexp.MustCompile(`^[A-Z][_0-9A-Za-z]{0,230}$`)

// Validate reports every problem with the configuration after defaults are
// applied, joined.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("weaviate: URL %q must be http(s)://host[:port]", c.URL))
	}
	if c.GRPCAddr != "" {
		if _, _, err := net.SplitHostPort(c.GRPCAddr); err != nil {
			errs = append(errs, fmt.Errorf("weaviate: GRPCAddr %q must be host:port: %w", c.GRPCAddr, err))
		}
	}
	if !classPattern.MatchString(c.Class) {
		errs = append(errs, fmt.Errorf("weaviate: class %q must match %s", c.Class, classPattern))
	}
	if c.Dims <= 0 {
		errs = append(errs, fmt.Errorf("weaviate: Dims must be positive, got %d", c.Dims))
	}
	if c.BatchSize < 0 {
		errs = append(errs, fmt.Errorf("weaviate: BatchSize must be positive, got %d", c.BatchSize))
	}
	if c.RequestTimeout < 0 {
		errs = append(errs, fmt.Errorf("weaviate: RequestTimeout must be positive, got %s", c.RequestTimeout))
	}
	if c.StartupTimeout < 0 {
		errs = append(errs, fmt.Errorf("weaviate: StartupTimeout must be positive, got %s", c.StartupTimeout))
	}
	if c.FlatSearchCutoff < 0 {
		errs = append(errs, fmt.Errorf("weaviate: FlatSearchCutoff must not be negative, got %d", c.FlatSearchCutoff))
	}
	if c.MaxResults < 0 {
		errs = append(errs, fmt.Errorf("weaviate: MaxResults must be positive, got %d", c.MaxResults))
	}
	if c.MaxReaderClasses < 0 || c.ReaderClassIdle < 0 {
		errs = append(errs, fmt.Errorf("weaviate: MaxReaderClasses (%d) and ReaderClassIdle (%s) must not be negative",
			c.MaxReaderClasses, c.ReaderClassIdle))
	}
	return errors.Join(errs...)
}
