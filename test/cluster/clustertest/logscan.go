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
	CausationID   string `json:"causationid"` // set on what a pipeline stage wrote
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
	out := make([]Event, 0, info.State.LastSeq)
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		// One get per revision from the stream leader: a consumer could be
		// placed on a node that just came back and is still catching up.
		var m *jetstream.RawStreamMsg
		for failures := 0; ; failures++ {
			m, err = s.GetMsg(ctx, seq)
			if err == nil {
				break
			}
			if failures > 40 || ctx.Err() != nil {
				return nil, fmt.Errorf("read %s at %d of %d: %w", stream, seq, info.State.LastSeq, err)
			}
			time.Sleep(250 * time.Millisecond)
		}
		var e Event
		if err := json.Unmarshal(m.Data, &e); err != nil {
			return nil, err
		}
		e.Revision = m.Sequence
		out = append(out, e)
	}
	return out, nil
}
