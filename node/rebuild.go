package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/projectors"
)

// rebuild waits until the projections have applied head, saying every
// stepAttempt how far they are: a start that replays a long log, or whose
// reads of the log stall, is visible in the log and in /healthz instead of
// a silent process (only the end of ctx ends the wait).
func (n *Node) rebuild(ctx context.Context, head uint64) error {
	for {
		wctx, cancel := context.WithTimeout(ctx, stepAttempt)
		err := n.Runner.WaitFor(wctx, head)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !errors.Is(err, projectors.ErrNotReached) {
			return fmt.Errorf("node: rebuild projections: %w", err)
		}
		n.waiting(fmt.Sprintf("the projections to reach revision %d", head),
			fmt.Errorf("at revision %d after %s", n.Runner.Revision(), stepAttempt))
	}
}
