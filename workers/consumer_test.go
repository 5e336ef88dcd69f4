package workers

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// consumeNow is a consumer that calls the handler once, at Consume.
type consumeNow struct{ jetstream.Consumer }

func (consumeNow) Consume(h jetstream.MessageHandler, _ ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	h(nil)
	return nil, nil
}

// TestShutdownSafeRecoversOnlyTheClosedChannelSend: the library's send on
// a closed output channel is absorbed (the message is redelivered later);
// any other panic still escapes.
func TestShutdownSafeRecoversOnlyTheClosedChannelSend(t *testing.T) {
	c := shutdownSafe{Consumer: consumeNow{}}
	closed := make(chan int)
	close(closed)
	if _, err := c.Consume(func(jetstream.Msg) { closed <- 1 }); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Fatalf("recovered %v, want the handler's own panic raised again", r)
		}
	}()
	_, _ = c.Consume(func(jetstream.Msg) { panic("other") })
	t.Fatal("a panic other than the closed-channel send was swallowed")
}
