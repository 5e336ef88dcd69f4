package eventlog

import (
	"context"
	"fmt"
	"time"
)

// Waiting is told why a dependency is not ready yet, before each wait
// between two attempts to reach it: what names the dependency, err is the
// last attempt's failure.
type Waiting func(what string, err error)

// Backoff bounds the waits of Retry: the first wait, and the longest.
const (
	firstWait = 250 * time.Millisecond
	longWait  = 5 * time.Second
)

// Retry runs op until it succeeds or ctx ends, each attempt bounded by
// perAttempt (0: only by ctx), waiting between attempts from 250 ms up to
// 5 s, doubling. A cluster that has no quorum yet, a leader being elected
// or a server not yet listening are all the same to a starting process:
// not ready yet, never a reason to give up. waiting (nil: none) is told
// why before each wait. When ctx ends it returns the last failure.
func Retry(ctx context.Context, what string, perAttempt time.Duration, waiting Waiting, op func(context.Context) error) error {
	wait := firstWait
	for {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if perAttempt > 0 {
			actx, cancel = context.WithTimeout(ctx, perAttempt)
		}
		err := op(actx)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w (gave up: %w)", what, err, ctx.Err())
		}
		if waiting != nil {
			waiting(what, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w (gave up: %w)", what, err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, longWait)
	}
}
