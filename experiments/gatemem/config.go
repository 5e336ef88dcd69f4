package gatemem

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"
)

// Config is one run of the benchmark.
type Config struct {
	// Data is a directory in GateMem's bench/data layout:
	// <domain>/episodes.jsonl and <domain>/checkpoints.jsonl.
	Data string
	// Domains are the domains to run, in order (default office, medical,
	// education).
	Domains []string
	// Out receives <domain>/predictions.jsonl and the scorer's output.
	Out string
	// Episodes caps the episodes run per domain (0: all).
	Episodes int
	// Scorer is GateMem's score_predictions.py; empty looks for it beside
	// Data (../scripts/score_predictions.py), and no python3 or no script
	// skips scoring.
	Scorer string
	// ScoreData is the directory holding the hidden checkpoints the
	// scorer judges against (default Data). The run itself never reads
	// their scoring fields; this lets it run on a stripped copy.
	ScoreData string
	// Python runs the scorer (default python3).
	Python string
	// QueryTimeout bounds one checkpoint's query (default 2 minutes).
	QueryTimeout time.Duration
	// Progress, when set, receives one line per episode.
	Progress io.Writer
}

// DefaultDomains are the domains a run covers when none are named: the
// three the features are developed on. Household is the held-out check
// and runs only when named.
var DefaultDomains = []string{"office", "medical", "education"}

var domainRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// WithDefaults fills the zero fields.
func (c Config) WithDefaults() Config {
	if len(c.Domains) == 0 {
		c.Domains = DefaultDomains
	}
	c.ScoreData = cmp.Or(c.ScoreData, c.Data)
	c.Python = cmp.Or(c.Python, "python3")
	c.QueryTimeout = cmp.Or(c.QueryTimeout, 2*time.Minute)
	return c
}

// Validate reports every problem at once.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Data == "" {
		errs = append(errs, errors.New("gatemem: Data (-data) is required"))
	}
	if c.Out == "" {
		errs = append(errs, errors.New("gatemem: Out (-out) is required"))
	}
	for _, d := range c.Domains {
		if !domainRE.MatchString(d) {
			errs = append(errs, fmt.Errorf("gatemem: domain %q is not a domain name", d))
		}
	}
	if c.Episodes < 0 {
		errs = append(errs, errors.New("gatemem: Episodes must be ≥ 0"))
	}
	return errors.Join(errs...)
}
