package workers

import (
	"errors"
	"fmt"
	"log/slog"
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
//
// It also reports a subscription that ends on its own: nats.go stops a
// pull subscription for good when the server says its consumer was
// deleted (a consumer lost in a cluster fault), and watermill-nats never
// notices, so the handler would wait for messages that never come (issue
// 26, stranded queries). lost is told, and the router is rebuilt.
type shutdownSafe struct {
	jetstream.Consumer
	name   string
	logger *slog.Logger
	lost   func(error)
}

// Consume implements jetstream.Consumer.
func (c shutdownSafe) Consume(handler jetstream.MessageHandler, opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	if c.logger != nil {
		opts = append(opts, jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			c.logger.Debug("worker consumer", "consumer", c.name, "err", err)
		}))
	}
	cc, err := c.Consumer.Consume(func(msg jetstream.Msg) {
		defer func() {
			if r := recover(); r != nil && !sendOnClosed(r) {
				panic(r)
			}
		}()
		handler(msg)
	}, opts...)
	if err == nil && c.lost != nil {
		go func() {
			<-cc.Closed()
			c.lost(fmt.Errorf("workers: the subscription to consumer %s ended", c.name))
		}()
	}
	return cc, err
}

// sendOnClosed reports whether r is the runtime's panic for a send on a
// closed channel.
func sendOnClosed(r any) bool {
	var re runtime.Error
	err, ok := r.(error)
	return ok && errors.As(err, &re) && re.Error() == "send on closed channel"
}
