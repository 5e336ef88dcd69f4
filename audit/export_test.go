package audit

import (
	"context"

	"github.com/cmem/cmem/eventlog"
	"github.com/cmem/cmem/events"
)

// WriteMsgs converts msgs into one batch and writes it exactly as a flush
// does; tests use it to deliver a batch twice.
func (s *Store) WriteMsgs(ctx context.Context, msgs []eventlog.Msg) error {
	v, err := events.DefaultValidator()
	if err != nil {
		return err
	}
	b := &batch{}
	for _, m := range msgs {
		b.add(v, m)
	}
	return s.write(ctx, b)
}
