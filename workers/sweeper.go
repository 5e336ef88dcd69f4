package workers

import (
	"context"
	"fmt"
	"time"
)

// Sweep ends every query that has been pending longer than QueryTimeout
// with a QueryFailed event (stage "timeout"), so that a query whose events
// stopped flowing (a stage that exhausted its redeliveries, a provider that
// hangs past every bound) ends with an answer, never a hang. Every worker
// sweeps; the failure event's id is derived from the query, so the log
// keeps one.
func (p *Pipeline) Sweep(ctx context.Context) {
	tick := time.NewTicker(max(p.cfg.QueryTimeout/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, q := range p.Queries.Pending(time.Now().Add(-p.cfg.QueryTimeout)) {
			reason := fmt.Sprintf("not finished within %s", p.cfg.QueryTimeout)
			if err := p.fail(ctx, q, "", "timeout", reason); err != nil && ctx.Err() == nil {
				p.Logger.Warn("sweeper could not end a stale query", "query", q.ID, "err", err)
			}
		}
	}
}
