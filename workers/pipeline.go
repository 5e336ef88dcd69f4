package workers

import (
	"cmp"
	"log/slog"

	"github.com/cmem/cmem/app"
)

// Publisher publishes on core NATS subjects (*nats.Conn is one).
type Publisher interface {
	Publish(subject string, data []byte) error
}

// Pipeline is the query pipeline's use cases (app.Pipeline) bound to the
// bus: the router turns events into their commands, and finished queries
// are published to callers waiting on NATS.
type Pipeline struct {
	cfg    Config
	app    *app.Pipeline
	bus    Publisher
	logger *slog.Logger
}

// NewPipeline returns a pipeline over a's use cases; cfg's zero fields take
// defaults. bus publishes answers to NATS callers; nil publishes none.
func NewPipeline(cfg Config, a *app.App, queries app.QueryStates, bus Publisher, logger *slog.Logger) (*Pipeline, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	logger = cmp.Or(logger, slog.Default())
	ap, err := app.NewPipeline(a, cfg.PipelineConfig, queries, logger)
	if err != nil {
		return nil, err
	}
	return &Pipeline{cfg: cfg, app: ap, bus: bus, logger: logger}, nil
}

// Config returns the effective configuration.
func (p *Pipeline) Config() Config { return p.cfg }
