package graphmem

import (
	"cmp"
	"errors"
	"fmt"
)

// Config tunes the projection and the traversal; zero fields take the
// defaults of WithDefaults.
type Config struct {
	// K is the number of most similar queries the traversal starts from
	// (paper Eq. 4: k ∈ {1, 2}). Default 2.
	K int
	// M is the number of queries whose interactions are returned (Eq. 7:
	// M ∈ {2..5}). Default 3.
	M int
	// EdgeThreshold is the cosine similarity at which two queries of a user
	// are joined by a semantic edge. Default 0.5.
	EdgeThreshold float32
	// MaxQueries, MaxInsights and MaxInteractions bound the answer (the
	// most similar queries of the expanded set; every one of them still
	// counts for the insights). Defaults 8, 6 and 12.
	MaxQueries, MaxInsights, MaxInteractions int
	// PerUser bounds the queries kept per user: the oldest leave once
	// PerUser newer ones have finished. Default 1000.
	PerUser int
}

// WithDefaults returns c with its zero fields filled (the defaults listed
// with each field).
func (c Config) WithDefaults() Config {
	c.K = cmp.Or(c.K, 2)
	c.M = cmp.Or(c.M, 3)
	c.MaxQueries = cmp.Or(c.MaxQueries, 8)
	c.MaxInsights = cmp.Or(c.MaxInsights, 6)
	c.MaxInteractions = cmp.Or(c.MaxInteractions, 12)
	c.PerUser = cmp.Or(c.PerUser, 1000)
	c.EdgeThreshold = cmp.Or(c.EdgeThreshold, 0.5)
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	for _, f := range []struct {
		name string
		v    int
	}{{"K", c.K}, {"M", c.M}, {"MaxQueries", c.MaxQueries}, {"MaxInsights", c.MaxInsights},
		{"MaxInteractions", c.MaxInteractions}, {"PerUser", c.PerUser}} {
		if f.v < 1 {
			errs = append(errs, fmt.Errorf("graphmem: %s must be at least 1, got %d", f.name, f.v))
		}
	}
	if c.EdgeThreshold <= -1 || c.EdgeThreshold > 1 {
		errs = append(errs, errors.New("graphmem: EdgeThreshold must be within (-1, 1]"))
	}
	return errors.Join(errs...)
}
