package clickhouse

import (
	"context"
	"log/slog"
	"time"

	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
)

// Trail is the audit trail of one process, wired: the in-process
// audit.History (register it on the projection runner after graph), and
// with a DSN the ClickHouse Store and its Projector. Service answers from
// ClickHouse when there is one, else from the History. It lives here, not
// in package audit, because it builds the Store: audit imports nothing of
// ClickHouse.
type Trail struct {
	History   *audit.History
	Store     *Store     // nil without ClickHouse
	Projector *Projector // nil without ClickHouse
	Service   *audit.Service
}

// NewTrail builds the trail; cfg.DSN empty means in-process only. It does
// no I/O: ClickHouse being down at start stops nothing.
func NewTrail(cfg Config, graph *access.Graph, src Source, readWait time.Duration, logger *slog.Logger) (*Trail, error) {
	t := &Trail{History: audit.NewHistory(graph)}
	var backend audit.Backend = t.History
	if cfg.DSN != "" {
		var err error
		if t.Store, err = OpenStore(cfg.DSN, logger); err != nil {
			return nil, err
		}
		if t.Projector, err = NewProjector(cfg, src, t.Store, logger); err != nil {
			_ = t.Store.Close()
			return nil, err
		}
		backend = t.Store
	}
	var err error
	if t.Service, err = audit.NewService(audit.ServiceConfig{ReadWait: readWait, Poll: 20 * time.Millisecond}, backend); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// Run runs the projector, if any, until ctx ends.
func (t *Trail) Run(ctx context.Context) {
	if t.Projector != nil {
		_ = t.Projector.Run(ctx)
	}
}

// Close releases the ClickHouse connections; call it after Run returned.
func (t *Trail) Close() {
	if t.Store != nil {
		_ = t.Store.Close()
	}
}
