package snapshot

import (
	"errors"
	"time"
)

// DefaultEvery is how many events a process lets pass between two
// snapshots unless configured otherwise. Chosen from the figures in the
// README's capacity plan (BenchmarkStartFromSnapshot): a start replays at
// most this many events after the newest snapshot, ≈30 s at the tail
// replay rate measured on a loaded machine (3.4k events/s), while a
// restore of a 300k-event state took 13 s.
const DefaultEvery = 100_000

// DefaultMinPeriod is the least time between two snapshots of one process.
// A snapshot's marshal and upload take a core for seconds (7.8 s for a
// 300k-event state measured here, growing with the state; the projections
// are held only for the copy); at most one per 5 minutes keeps that under
// 3% of a process's time whatever the event rate.
const DefaultMinPeriod = 5 * time.Minute

// DefaultKeep is how many snapshots are kept; older ones are deleted.
const DefaultKeep = 2

// Config says when a process takes snapshots and whether it starts from
// one.
type Config struct {
	// Off makes the process neither start from a snapshot nor take one
	// (CMEM_SNAPSHOTS=off): every start replays the whole log.
	Off bool
	// Every is how many events pass between two snapshots
	// (CMEM_SNAPSHOT_EVERY); 0 = DefaultEvery, negative: this process
	// takes none (it still starts from the newest one).
	Every int64
	// MinPeriod is the least time between two snapshots
	// (CMEM_SNAPSHOT_MIN_PERIOD); 0 = DefaultMinPeriod, negative: none.
	MinPeriod time.Duration
	// Keep is how many snapshots are kept; 0 = DefaultKeep.
	Keep int
}

// WithDefaults returns c with its zero fields set to their defaults. A
// negative Every or MinPeriod stays negative: it means none.
func (c Config) WithDefaults() Config {
	if c.Every == 0 {
		c.Every = DefaultEvery
	}
	if c.MinPeriod == 0 {
		c.MinPeriod = DefaultMinPeriod
	}
	if c.Keep == 0 {
		c.Keep = DefaultKeep
	}
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Keep < 0 {
		errs = append(errs, errors.New("snapshot: Keep must not be negative"))
	}
	return errors.Join(errs...)
}
