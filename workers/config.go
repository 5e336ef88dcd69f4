package workers

import (
	"cmp"
	"errors"
	"time"

	"github.com/cmem/cmem/app"
)

// Config tunes the pipeline (app.PipelineConfig) and its transport. Zero
// fields take the defaults.
type Config struct {
	app.PipelineConfig
	// AckWait is how long JetStream waits, without news from the worker,
	// before it redelivers a stage's event to another worker. A worker
	// sends news (an in-progress acknowledgement) every AckWait/3 while a
	// stage runs, so a slow stage keeps its event and a stage whose worker
	// died is taken over within AckWait. Default 5s.
	AckWait time.Duration
	// Group prefixes the durable consumer names; workers with the same group
	// share the work. Default "cmem".
	Group string
}

// WithDefaults returns c with its zero fields filled, the pipeline's
// (app.PipelineConfig.WithDefaults) included: AckWait 5s, Group "cmem".
func (c Config) WithDefaults() Config {
	c.PipelineConfig = c.PipelineConfig.WithDefaults()
	c.AckWait = cmp.Or(c.AckWait, 5*time.Second)
	c.Group = cmp.Or(c.Group, "cmem")
	return c
}

// Validate reports every problem with c, its defaults filled, the
// pipeline's included.
func (c Config) Validate() error {
	c = c.WithDefaults()
	errs := []error{c.PipelineConfig.Validate()}
	if c.AckWait < time.Second {
		errs = append(errs, errors.New("workers: AckWait must be at least 1s (in-progress acknowledgements go every AckWait/3)"))
	}
	return errors.Join(errs...)
}
