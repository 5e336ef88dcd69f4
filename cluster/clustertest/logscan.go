package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Event is what the checks read of one stored event.
type Event struct {
	Revision      uint64
	ID            string `json:"id"`
	Type          string `json:"type"`
	Subject       string `json:"subject"`
	CorrelationID string `json:"correlationid"`
	Data          struct {
		Key string `json:"key"`
	} `json:"data"`
}

// ReadLog reads every event of stream through url, in revision order.
func ReadLog(ctx context.Context, url, stream string) ([]Event, error) {
	nc, err := nats.Connect(url)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Event, 0, info.State.Msgs)
	var cons jetstream.Consumer
	for failures := 0; uint64(len(out)) < info.State.Msgs; {
		if cons == nil {
			// An ordered consumer can lose its server mid-read on a cluster
			// that just recovered from a fault: start again where it stopped.
			cons, err = s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
				DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: uint64(len(out)) + 1})
		}
		var m jetstream.Msg
		if err == nil {
			m, err = cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		}
		if err != nil {
			if failures++; failures > 20 || ctx.Err() != nil {
				return nil, fmt.Errorf("read %s at %d of %d: %w", stream, len(out), info.State.Msgs, err)
			}
			cons, err = nil, nil
			time.Sleep(250 * time.Millisecond)
			continue
		}
		var e Event
		if err := json.Unmarshal(m.Data(), &e); err != nil {
			return nil, err
		}
		md, err := m.Metadata()
		if err != nil {
			return nil, err
		}
		e.Revision = md.Sequence.Stream
		out = append(out, e)
	}
	return out, nil
}
