package workers

import (
	"errors"
	"runtime"

	"github.com/nats-io/nats.go/jetstream"
)

// shutdownSafe is a durable consumer whose callbacks survive the one panic
// watermill-nats v2.1.3 can raise when a router stops: its monitor
// goroutine closes a subscription's output channel as soon as the context
// ends (pkg/jetstream/consumer.go, monitor), while a callback that has just
// received a message may be choosing between that context and a send on
// the same channel (message_handler.go, handleMsg); Go picks either ready
// case, and the send panics on the closed channel, taking the process down
// mid-shutdown. The message is then neither acked nor nacked, so JetStream
// delivers it again after AckWait, to this worker's successor or another
// worker; every handler is idempotent by event id. Any other panic is raised
// again.
type shutdownSafe struct{ jetstream.Consumer }

// Consume implements jetstream.Consumer.
func (c shutdownSafe) Consume(handler jetstream.MessageHandler, opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	return c.Consumer.Consume(func(msg jetstream.Msg) {
		defer func() {
			if r := recover(); r != nil && !sendOnClosed(r) {
				panic(r)
			}
		}()
		handler(msg)
	}, opts...)
}

// sendOnClosed reports whether r is the runtime's panic for a send on a
// closed channel.
func sendOnClosed(r any) bool {
	var re runtime.Error
	err, ok := r.(error)
	return ok && errors.As(err, &re) && re.Error() == "send on closed channel"
}
