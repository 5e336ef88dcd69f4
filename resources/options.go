package resources

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"
)

// Options are what every resource built by one process shares: the HTTP
// client, where server-side documents may live, and the limits that keep an
// admin's configuration or an agent's arguments from exhausting the process.
// Zero fields take the defaults listed with them.
type Options struct {
	// HTTPClient sends the requests of http resources; nil uses a client of
	// its own. Each call is bounded by the resource's timeout_ms, so the
	// client needs no overall Timeout.
	HTTPClient *http.Client
	// DocumentRoot is the only directory a knowledge_base "path" may name.
	// Empty refuses every path, so that registering a resource can never
	// read the server's files unless the operator opted in.
	DocumentRoot string
	// SecretsDir holds the files http resource headers may name with
	// {"file": "name"} (CMEM_SECRETS_DIR); empty refuses file references.
	SecretsDir string
	// LookupEnv reads the variables headers name with {"env": "NAME"};
	// nil uses os.LookupEnv.
	LookupEnv func(string) (string, bool)

	// SnippetChars is how much of each document (in characters) a
	// knowledge_base search shows the agent, unless the resource sets
	// "snippet_chars". Default 500.
	SnippetChars int
	// MaxDocuments bounds the documents of one knowledge_base. Default 10000.
	MaxDocuments int
	// MaxDocumentBytes bounds one document, inline or read from a file.
	// Default 1 MiB.
	MaxDocumentBytes int
	// MaxArgumentBytes bounds the arguments of one call. Default 64 KiB.
	MaxArgumentBytes int
	// MaxExpressionLength bounds a computation expression in bytes.
	// Default 1024.
	MaxExpressionLength int
	// MaxExpressionDepth bounds the nesting of a computation expression
	// (parentheses, unary signs, function calls). Default 64.
	MaxExpressionDepth int
	// MaxHTTPTimeout caps the timeout_ms an http resource may configure.
	// Default 60s.
	MaxHTTPTimeout time.Duration
	// MaxHTTPResponseBytes caps the max_response_bytes an http resource may
	// configure. Default 1 MiB.
	MaxHTTPResponseBytes int
}

// Defaults of Options and of the kinds' configuration.
const (
	DefaultSnippetChars         = 500
	DefaultMaxDocuments         = 10000
	DefaultMaxDocumentBytes     = 1 << 20
	DefaultMaxArgumentBytes     = 64 << 10
	DefaultMaxExpressionLength  = 1024
	DefaultMaxExpressionDepth   = 64
	DefaultMaxHTTPTimeout       = 60 * time.Second
	DefaultMaxHTTPResponseBytes = 1 << 20

	DefaultHTTPTimeout          = 10 * time.Second
	DefaultHTTPMaxResponseBytes = 64 << 10
	DefaultTopK                 = 3
	MaxTopK                     = 10
)

// WithDefaults returns o with its zero fields filled: the Default*
// limits, a client of its own for HTTPClient, os.LookupEnv for LookupEnv.
func (o Options) WithDefaults() Options {
	o.HTTPClient = cmp.Or(o.HTTPClient, &http.Client{})
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	o.SnippetChars = cmp.Or(o.SnippetChars, DefaultSnippetChars)
	o.MaxDocuments = cmp.Or(o.MaxDocuments, DefaultMaxDocuments)
	o.MaxDocumentBytes = cmp.Or(o.MaxDocumentBytes, DefaultMaxDocumentBytes)
	o.MaxArgumentBytes = cmp.Or(o.MaxArgumentBytes, DefaultMaxArgumentBytes)
	o.MaxExpressionLength = cmp.Or(o.MaxExpressionLength, DefaultMaxExpressionLength)
	o.MaxExpressionDepth = cmp.Or(o.MaxExpressionDepth, DefaultMaxExpressionDepth)
	o.MaxHTTPTimeout = cmp.Or(o.MaxHTTPTimeout, DefaultMaxHTTPTimeout)
	o.MaxHTTPResponseBytes = cmp.Or(o.MaxHTTPResponseBytes, DefaultMaxHTTPResponseBytes)
	return o
}

// Validate reports every problem with o at once, its defaults filled, so
// only negative limits are errors.
func (o Options) Validate() error {
	o = o.WithDefaults()
	var errs []error
	for _, l := range []struct {
		name string
		v    int64
	}{
		{"SnippetChars", int64(o.SnippetChars)},
		{"MaxDocuments", int64(o.MaxDocuments)},
		{"MaxDocumentBytes", int64(o.MaxDocumentBytes)},
		{"MaxArgumentBytes", int64(o.MaxArgumentBytes)},
		{"MaxExpressionLength", int64(o.MaxExpressionLength)},
		{"MaxExpressionDepth", int64(o.MaxExpressionDepth)},
		{"MaxHTTPTimeout", int64(o.MaxHTTPTimeout)},
		{"MaxHTTPResponseBytes", int64(o.MaxHTTPResponseBytes)},
	} {
		if l.v < 0 {
			errs = append(errs, fmt.Errorf("resources: %s must not be negative", l.name))
		}
	}
	return errors.Join(errs...)
}
