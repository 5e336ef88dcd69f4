package workers

import (
	"context"
	"time"
)

// Sweep ends, every QueryTimeout/4, the queries pending longer than
// QueryTimeout (app.Pipeline.FailStale), until ctx ends.
func (p *Pipeline) Sweep(ctx context.Context) {
	tick := time.NewTicker(max(p.cfg.QueryTimeout/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		p.app.FailStale(ctx)
	}
}
