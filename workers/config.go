package workers

import (
	"errors"
	"time"

	"github.com/cmem/cmem/app"
)

// Config tunes the pipeline (app.PipelineConfig) and its transport. Zero
// fields take the defaults.
type Config struct {
	app.PipelineConfig
	// AckWait is how long JetStream waits for a stage before redelivering
	// its event to another worker; it must exceed StageTimeout.
	AckWait time.Duration
	// Group prefixes the durable consumer names; workers with the same group
	// share the work. Default "cmem".
	Group string
}

func (c *Config) setDefaults() {
	c.PipelineConfig.SetDefaults()
	if c.AckWait == 0 {
		c.AckWait = c.StageTimeout + 30*time.Second
	}
	if c.Group == "" {
		c.Group = "cmem"
	}
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	errs := []error{c.PipelineConfig.Validate()}
	if c.AckWait <= c.StageTimeout {
		errs = append(errs, errors.New("workers: AckWait must exceed StageTimeout, or slow stages are redelivered while they run"))
	}
	return errors.Join(errs...)
}
