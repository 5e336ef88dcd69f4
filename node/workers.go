package node

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/workers"
)

// startWorkers runs the pipeline's handlers on the shared durable
// consumers; every worker process joins the same ones.
func (n *Node) startWorkers() error {
	var err error
	n.Pipeline, err = workers.NewPipeline(n.cfg.Workers, n.App, n.Queries, n.Log.Conn(), n.logger)
	if err != nil {
		return err
	}
	if n.router, err = workers.NewRouter(n.Pipeline, n.Log, n.logger); err != nil {
		return err
	}
	rctx, cancel := context.WithCancel(context.Background())
	n.wg.Add(2)
	go func() {
		defer n.wg.Done()
		defer cancel()
		if err := n.router.Run(rctx); err != nil {
			n.logger.Error("worker router stopped", "err", err)
		}
	}()
	go func() {
		defer n.wg.Done()
		n.Pipeline.Sweep(rctx)
	}()
	select {
	case <-n.router.Running():
		return nil
	case <-rctx.Done():
		return fmt.Errorf("node: worker router did not start")
	}
}
