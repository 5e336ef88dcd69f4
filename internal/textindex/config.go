package textindex

import (
	"cmp"
	"errors"
	"fmt"
)

// Config tunes an Index. The zero Config is BM25's usual parameters
// without stemming.
type Config struct {
	// K1 is BM25's term-frequency saturation (default 1.2): how quickly
	// a term's repeats stop adding to a score.
	K1 float64
	// B is BM25's length normalisation in [0, 1] (default 0.75): 0 scores
	// a long document like a short one, 1 normalises fully by length.
	// Set NoLengthNorm to use 0, since a zero B means "default".
	B float64
	// NoLengthNorm sets B to 0.
	NoLengthNorm bool
	// Stem applies Stem to every token of documents and queries.
	Stem bool
}

// WithDefaults fills the zero fields with BM25's usual values.
func (c Config) WithDefaults() Config {
	c.K1 = cmp.Or(c.K1, 1.2)
	c.B = cmp.Or(c.B, 0.75)
	if c.NoLengthNorm {
		c.B = 0
	}
	return c
}

// Validate reports parameters BM25 is not defined for.
func (c Config) Validate() error {
	var errs []error
	if c.K1 < 0 {
		errs = append(errs, fmt.Errorf("textindex: K1 %v is negative", c.K1))
	}
	if c.B < 0 || c.B > 1 {
		errs = append(errs, fmt.Errorf("textindex: B %v is outside [0, 1]", c.B))
	}
	return errors.Join(errs...)
}
