package clickhouse

import "context"

// Lease makes one process the writer of the ClickHouse tables
// (*eventlog.Lease): every process would otherwise insert every row.
type Lease interface {
	// Run runs fn while this process holds the lease, until ctx ends.
	Run(ctx context.Context, fn func(ctx context.Context))
	// Check is the fence: nil only while this process may write.
	Check(ctx context.Context) error
}

// RunLeased runs the projector only while this process holds lease, and
// checks the lease before each batch it writes: a process whose lease
// ended stops before another can start, and the next holder resumes from
// the revision ClickHouse holds. Call it instead of Run, before any Run.
func (p *Projector) RunLeased(ctx context.Context, lease Lease) {
	p.fence = lease.Check
	lease.Run(ctx, func(ctx context.Context) { _ = p.Run(ctx) })
}

// RunLeased is Run under lease (Projector.RunLeased); nil lease is Run.
func (t *Trail) RunLeased(ctx context.Context, lease Lease) {
	if t.Projector == nil {
		return
	}
	if lease == nil {
		_ = t.Projector.Run(ctx)
		return
	}
	t.Projector.RunLeased(ctx, lease)
}
