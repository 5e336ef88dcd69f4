package rerank

import (
	"cmp"
	"errors"
	"fmt"
)

// Config tunes learning and re-ranking; zero fields take the defaults of
// DefaultConfig.
type Config struct {
	// Candidates is n, how many pool fragments BM25 retrieves for an
	// admitted fragment.
	Candidates int
	// Labelled is v, how many of them are labelled (v/2 positive, v/2
	// negative); even.
	Labelled int
	// Weight (w) and Offset (s0) map a similarity s to the retriever's
	// logit w·(s − s0).
	Weight float64
	Offset float64
	// Rate is η, the step of Eq. 3's gradient.
	Rate float64
	// Kernel is the cosine of a query to an admitted fragment's key below
	// which that fragment's lesson does not apply; above it the lesson
	// applies in proportion, (cos − Kernel)/(1 − Kernel).
	Kernel float64
	// Prior is the weight of what a fragment was taught whatever the
	// query: its learned utility. A candidate's logit adds
	// Σ δ(c, m)·(kernel(q, X_m) + Prior) over the lessons its reader may see.
	Prior float64
}

// DefaultConfig is the configuration used when none is given (tuned on
// the benchmark in app/rerank_bench_test.go).
func DefaultConfig() Config {
	return Config{Candidates: 8, Labelled: 4, Weight: 10, Offset: 0.5, Rate: 24, Kernel: 0.5, Prior: 0.2}
}

// WithDefaults returns c with its zero fields set from DefaultConfig.
func (c Config) WithDefaults() Config {
	d := DefaultConfig()
	c.Candidates = cmp.Or(c.Candidates, d.Candidates)
	c.Labelled = cmp.Or(c.Labelled, d.Labelled)
	c.Weight = cmp.Or(c.Weight, d.Weight)
	c.Offset = cmp.Or(c.Offset, d.Offset)
	c.Rate = cmp.Or(c.Rate, d.Rate)
	c.Kernel = cmp.Or(c.Kernel, d.Kernel)
	c.Prior = cmp.Or(c.Prior, d.Prior)
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Candidates < 2 || c.Candidates > 100 {
		errs = append(errs, fmt.Errorf("rerank: Candidates must be within 2..100, got %d", c.Candidates))
	}
	if c.Labelled < 2 || c.Labelled%2 != 0 || c.Labelled > c.Candidates {
		errs = append(errs, fmt.Errorf("rerank: Labelled must be even, at least 2 and at most Candidates, got %d", c.Labelled))
	}
	if c.Weight <= 0 {
		errs = append(errs, fmt.Errorf("rerank: Weight must be positive, got %g", c.Weight))
	}
	if c.Rate <= 0 {
		errs = append(errs, fmt.Errorf("rerank: Rate must be positive, got %g", c.Rate))
	}
	if c.Prior < 0 || c.Prior > 1 {
		errs = append(errs, fmt.Errorf("rerank: Prior must be within 0..1, got %g", c.Prior))
	}
	if c.Kernel <= 0 || c.Kernel >= 1 {
		errs = append(errs, fmt.Errorf("rerank: Kernel must be within (0, 1), got %g", c.Kernel))
	}
	return errors.Join(errs...)
}
