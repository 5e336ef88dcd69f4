package workers

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/eventlog"
)

// Supervise runs the pipeline's router on bus until ctx ends, and keeps
// it running: a router that cannot start (no quorum yet, the stream's
// leader being elected), that stops on its own, or one of whose durable
// consumers is lost, is replaced by a new one after a backoff (the first
// 250 ms, up to 5 s), which creates the consumers again. waiting (nil:
// none) is told why before each wait; running, if not nil, is closed once
// a router first runs. Closing the router when ctx ends waits for the
// stages in flight.
//
// Without it (issue 26), a worker whose consumers could not be created at
// start exited, and one whose subscription ended in a cluster fault stayed
// up, healthy to every check, and handled nothing again: every query
// submitted from then on stayed pending.
func Supervise(ctx context.Context, p *Pipeline, bus Bus, logger *slog.Logger, waiting eventlog.Waiting, running chan<- struct{}) {
	var once sync.Once
	started := func() {
		if running != nil {
			once.Do(func() { close(running) })
		}
	}
	first := true
	_ = eventlog.Retry(ctx, "the worker consumers", 0, waiting, func(ctx context.Context) error {
		if !first {
			workerRestarts.Inc()
		}
		first = false
		err := runOnce(ctx, p, bus, logger, started)
		if ctx.Err() != nil {
			return nil
		}
		return err
	})
}

// runOnce runs one router until it stops, a consumer is lost, or ctx
// ends; the error says why it stopped.
func runOnce(ctx context.Context, p *Pipeline, bus Bus, logger *slog.Logger, started func()) error {
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	lost := func(err error) { cancel(err) }
	r, err := newRouter(p, bus, logger, lost)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(rctx) }()
	select {
	case <-r.Running():
		started()
		go watchConsumers(rctx, p, bus, lost)
	case err := <-done:
		return errors.Join(errors.New("workers: the router did not start"), err)
	}
	err = <-done // Run closes the router when rctx ends
	if cause := context.Cause(rctx); cause != nil && ctx.Err() == nil {
		return cause
	}
	if err == nil {
		err = errors.New("workers: the router stopped")
	}
	return err
}

// watchConsumers checks, every AckWait, that each durable consumer the
// router reads still exists, and tells lost when one does not: a consumer
// lost in a cluster fault leaves a pull subscription that asks for ever
// and receives nothing.
func watchConsumers(ctx context.Context, p *Pipeline, bus Bus, lost func(error)) {
	tick := time.NewTicker(p.cfg.AckWait)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, h := range []string{ConsumerCoordinator, ConsumerAgent, ConsumerReplier} {
			name := p.cfg.Group + "-" + h
			cctx, cancel := context.WithTimeout(ctx, p.cfg.AckWait)
			_, err := bus.JetStream().Consumer(cctx, bus.StreamName(), name)
			cancel()
			if errors.Is(err, jetstream.ErrConsumerNotFound) {
				lost(err)
				return
			}
		}
	}
}
