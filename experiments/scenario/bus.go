package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/subjects"
)

// streamName is the stream cmem keeps its log in (README: consuming the log
// without cmem).
const streamName = "CMEM_EVENTS"

// readerInbox is the inbox prefix the read-only credential may use.
const readerInbox = "_CMEM_READER"

// resourceCall is a cmem.resource.called event as read from the bus.
type resourceCall struct {
	QueryID  string `json:"query_id"`
	User     string `json:"user"`
	Agent    string `json:"agent"`
	Resource string `json:"resource"`
	Error    string `json:"error"`
}

// resourceCalls reads every cmem.resource.called event on the log, from
// the first to the head at the time of the call, over an ordered consumer
// on the query subjects, with the bus's read-only event-stream credential
// (README: Hardening, the bus).
func resourceCalls(ctx context.Context, natsURL, token string) ([]resourceCall, error) {
	nc, err := nats.Connect(natsURL, nats.Token(token), nats.Name("cmem-scenario"), nats.CustomInboxPrefix(readerInbox),
		// The reader may not delete consumers, so the ordered consumer's
		// clean-up is refused (the server drops it when idle): stay quiet.
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		return nil, fmt.Errorf("bus %s: %w", natsURL, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	st, err := js.Stream(ctx, streamName)
	if err != nil {
		return nil, fmt.Errorf("bus: stream %s: %w", streamName, err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		return nil, err
	}
	head := info.State.LastSeq
	cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subjects.EventsUnder("queries")}})
	if err != nil {
		return nil, err
	}
	var out []resourceCall
	for {
		ci, err := cons.Info(ctx)
		if err != nil {
			return nil, err
		}
		if ci.NumPending == 0 && ci.Delivered.Stream >= head || ci.NumPending == 0 && ci.Delivered.Consumer == 0 && head == 0 {
			return out, nil
		}
		batch, err := cons.FetchNoWait(500)
		if err != nil {
			return nil, err
		}
		n := 0
		for m := range batch.Messages() {
			n++
			var e struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			}
			if json.Unmarshal(m.Data(), &e) != nil || e.Type != "cmem.resource.called" {
				continue
			}
			var rc resourceCall
			if err := json.Unmarshal(e.Data, &rc); err == nil && rc.Error == "" {
				out = append(out, rc)
			}
		}
		if err := batch.Error(); err != nil {
			return nil, err
		}
		if n == 0 {
			// Nothing left for the filter (the head may be another subject).
			if ci.NumPending == 0 {
				return out, nil
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
