package workers

import (
	"errors"
	"time"
)

// Config tunes the pipeline. Zero fields take the defaults.
type Config struct {
	// MaxRounds bounds the coordinator's rounds per query.
	MaxRounds int
	// KUser and KCross are the memory view's tier sizes (paper: 10 and 10).
	KUser, KCross int
	// Coverage is the offline provider's memory-first threshold: an agent
	// whose best memory item scores at least this calls no resource. Zero
	// keeps the provider's default.
	Coverage float32
	// MaxToolCalls bounds the resource calls of one agent turn.
	MaxToolCalls int
	// StageTimeout bounds one stage (a coordinator decision, an agent turn,
	// the aggregation), provider calls included.
	StageTimeout time.Duration
	// QueryTimeout ends a query that has not finished this long after it
	// was submitted, with a QueryFailed event.
	QueryTimeout time.Duration
	// HistoryItems is how many earlier answered queries the coordinator is
	// shown (those still admissible).
	HistoryItems int
	// AckWait is how long JetStream waits for a stage before redelivering
	// its event to another worker; it must exceed StageTimeout.
	AckWait time.Duration
	// Group prefixes the durable consumer names; workers with the same group
	// share the work. Default "cmem".
	Group string
}

func (c *Config) setDefaults() {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxRounds, 4)
	def(&c.KUser, 10)
	def(&c.KCross, 10)
	def(&c.MaxToolCalls, 3)
	def(&c.HistoryItems, 5)
	if c.StageTimeout == 0 {
		c.StageTimeout = 60 * time.Second
	}
	if c.QueryTimeout == 0 {
		c.QueryTimeout = 5 * time.Minute
	}
	if c.AckWait == 0 {
		c.AckWait = c.StageTimeout + 30*time.Second
	}
	if c.Group == "" {
		c.Group = "cmem"
	}
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if c.MaxRounds < 1 || c.MaxRounds > 32 {
		errs = append(errs, errors.New("workers: MaxRounds must be within 1..32"))
	}
	if c.KUser < 0 || c.KCross < 0 || c.KUser > 100 || c.KCross > 100 {
		errs = append(errs, errors.New("workers: KUser and KCross must be within 0..100"))
	}
	if c.AckWait <= c.StageTimeout {
		errs = append(errs, errors.New("workers: AckWait must exceed StageTimeout, or slow stages are redelivered while they run"))
	}
	if c.QueryTimeout < c.StageTimeout {
		errs = append(errs, errors.New("workers: QueryTimeout must be at least StageTimeout"))
	}
	return errors.Join(errs...)
}
