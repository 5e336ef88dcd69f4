package node

import (
	"context"
	"errors"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/workers/expirer"
)

// expiryLog appends an expired event only after the grant it ends.
type expiryLog struct{ l *eventlog.Log }

func (a expiryLog) AppendAfter(ctx context.Context, e events.Envelope, last uint64) (uint64, error) {
	rev, err := a.l.Append(ctx, e, eventlog.ExpectLast(last))
	if errors.Is(err, eventlog.ErrSubjectTaken) {
		return 0, expirer.ErrSuperseded
	}
	return rev, err
}

// startExpirer runs the expirer of this process: every worker and serve
// process has one, and the log keeps one copy of what they write.
func (n *Node) startExpirer() error {
	x, err := expirer.New(expirer.Config{Source: n.cfg.Source}, n.Graph, expiryLog{n.Log}, n.logger)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	prev := n.cancel
	n.cancel = func() {
		cancel()
		if prev != nil {
			prev()
		}
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		x.Run(ctx)
	}()
	return nil
}
