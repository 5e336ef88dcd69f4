package main

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// envDefaults reads typed flag defaults from CMEM_* variables, collecting
// every malformed value so a start-up reports them all at once.
type envDefaults struct{ errs []error }

// int is the integer in variable name, else def.
func (e *envDefaults) int(name string, def int) int {
	v := env(name, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %w", name, err))
		return def
	}
	return n
}

// duration is the duration in variable name (e.g. 5s), else def.
func (e *envDefaults) duration(name string, def time.Duration) time.Duration {
	v := env(name, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %w", name, err))
		return def
	}
	return d
}

// float is the number in variable name, else def.
func (e *envDefaults) float(name string, def float64) float64 {
	v := env(name, "")
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %w", name, err))
		return def
	}
	return f
}

// err is every malformed variable seen, or nil.
func (e *envDefaults) err() error { return errors.Join(e.errs...) }
