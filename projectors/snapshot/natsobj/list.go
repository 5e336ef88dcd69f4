package natsobj

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// listAttempt bounds one listing of the bucket, and listAttempts how many
// are made. The client lists through a watcher and waits for the end of
// its initial values with no timeout of its own: a watcher whose consumer
// was lost on a cluster (a leader elected under load) kept a starting
// process waiting for ever, before it had logged a word.
var listAttempt = 15 * time.Second

const listAttempts = 3

// list is every object of the bucket (none: an empty list), listed again
// when an attempt takes longer than listAttempt.
func (s *Store) list(ctx context.Context) ([]*jetstream.ObjectInfo, error) {
	var errs []error
	for range listAttempts {
		actx, cancel := context.WithTimeout(ctx, listAttempt)
		infos, err := s.os.List(actx)
		cancel()
		switch {
		case errors.Is(err, jetstream.ErrNoObjectsFound):
			return nil, nil
		case err == nil:
			return infos, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			break
		}
	}
	return nil, fmt.Errorf("natsobj: list snapshots: %w", errors.Join(errs...))
}
