package node

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/workers"
)

// startWorkers runs the pipeline's handlers on the shared durable
// consumers; every worker process joins the same ones. It returns once
// they run: until then (no quorum yet, a leader being elected) it waits,
// and the router is supervised for the life of the process (see
// workers.Supervise).
func (n *Node) startWorkers(ctx context.Context) error {
	var err error
	n.Pipeline, err = workers.NewPipeline(n.cfg.Workers, n.App, n.Queries, n.Log.Conn(), n.logger)
	if err != nil {
		return err
	}
	if _, err := workers.NewRouter(n.Pipeline, n.Log, n.logger); err != nil {
		return err // a configuration error: no retry fixes it
	}
	n.ready.set("waiting for the worker consumers")
	rctx, cancel := context.WithCancel(context.Background())
	n.stopWorkers, n.workersDone = cancel, make(chan struct{})
	running := make(chan struct{})
	n.wg.Add(1)
	go func() {
		defer close(n.workersDone)
		workers.Supervise(rctx, n.Pipeline, n.Log, n.logger, n.waiting, running)
	}()
	go func() {
		defer n.wg.Done()
		n.Pipeline.Sweep(rctx)
	}()
	select {
	case <-running:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("node: worker consumers: %w", ctx.Err())
	}
}
