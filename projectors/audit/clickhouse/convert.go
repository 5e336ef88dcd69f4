package clickhouse

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/cmem/cmem/events/eventlog"
)

// chunk is a run of consecutive events, converted into rows by a worker.
type chunk struct {
	msgs []eventlog.Msg
	rows batch
	done chan struct{} // closed when rows are ready
	// caughtUp says the reader had read the whole log when it cut this
	// chunk: nothing more is coming for now.
	caughtUp bool
}

// chunkSize is how many events a worker converts at a time; a partial
// chunk goes as soon as the reader has caught up with the log.
const chunkSize = 256

// chunkPool recycles chunks once the writer has copied their rows into its
// batch: a chunk's slices keep their capacity, so in a steady stream the
// conversion allocates no row storage at all (it was a third of what the
// projector allocated, and so of its garbage collection).
var chunkPool = sync.Pool{New: func() any {
	return &chunk{msgs: make([]eventlog.Msg, 0, chunkSize), rows: batch{events: make([]eventRow, 0, chunkSize)}}
}}

// newChunk returns an empty chunk, recycled when one is free.
func newChunk() *chunk {
	c := chunkPool.Get().(*chunk)
	c.done, c.caughtUp = make(chan struct{}), false
	return c
}

// release returns c to the pool; the caller no longer uses it or its rows
// (rows merged into a batch are copies; the strings they share are never
// written).
func (c *chunk) release() {
	clear(c.msgs) // the messages' bytes are garbage now
	c.msgs = c.msgs[:0]
	c.rows.reset()
	chunkPool.Put(c)
}

// convert follows the log from revision from and converts it into rows on
// GOMAXPROCS workers: checking every event against its schema is most of
// the projector's work. Chunks come out in log order; converted is closed
// once the reader and the workers have stopped. A failed follow cancels
// ctx with its cause.
func (p *Projector) convert(ctx context.Context, cancel context.CancelCauseFunc, from uint64) (chunks <-chan *chunk, converted <-chan struct{}) {
	workers := runtime.GOMAXPROCS(0)
	// Room for a whole batch beyond the one being flushed: the next batch
	// is read and converted while ClickHouse writes this one.
	ordered := make(chan *chunk, 4*workers+2*p.cfg.BatchSize/chunkSize)
	work := make(chan *chunk, 2*workers)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				for _, m := range c.msgs {
					c.rows.add(p.validator, m)
				}
				close(c.done)
			}
		}()
	}
	go func() {
		defer close(done)
		defer wg.Wait()
		defer close(work)
		cur := newChunk()
		err := p.src.Follow(ctx, from, func(m eventlog.Msg) error {
			cur.msgs = append(cur.msgs, m)
			if len(cur.msgs) < chunkSize && m.Pending > 0 {
				return nil
			}
			cur.caughtUp = m.Pending == 0
			// The writer takes chunks in this order and waits for each.
			for _, ch := range []chan *chunk{ordered, work} {
				select {
				case ch <- cur:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			}
			cur = newChunk()
			return nil
		})
		cancel(fmt.Errorf("audit: follow the log: %w", err))
	}()
	return ordered, done
}
