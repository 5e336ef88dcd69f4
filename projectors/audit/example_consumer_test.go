package audit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Example_externalConsumer is the README's minimal consumer that is not
// cmem: it follows the grant and read events of the log in order, from the
// beginning, with an ordered consumer (no acks, no state on the server),
// using only nats.go and the documented envelope. It is compiled with the
// tests so that it keeps working; it does not run without a cmem.
func Example_externalConsumer() {
	if err := followGrantsAndReads(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func followGrantsAndReads(ctx context.Context) error {
	// cmem serve's embedded server gives the token in
	// $CMEM_DATA/nats-reader.token read-only access to the event stream
	// (inbox prefix _CMEM_READER); a cluster takes whatever credentials its
	// operator issues (deploy/nats.conf, user analytics).
	nc, err := nats.Connect("nats://127.0.0.1:4222", nats.Token(os.Getenv("CMEM_NATS_READER_TOKEN")),
		nats.CustomInboxPrefix("_CMEM_READER"))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	cons, err := js.OrderedConsumer(ctx, "CMEM_EVENTS", jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{"cmem.events.grants.>", "cmem.events.reads.>"},
		DeliverPolicy:  jetstream.DeliverAllPolicy, // or DeliverByStartSequencePolicy to resume
	})
	if err != nil {
		return err
	}
	msgs, err := cons.Messages()
	if err != nil {
		return err
	}
	defer msgs.Stop()
	for {
		m, err := msgs.Next()
		if err != nil {
			return err
		}
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		var e struct {
			ID   string          `json:"id"`
			Type string          `json:"type"`
			Time time.Time       `json:"time"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(m.Data(), &e); err != nil {
			return err
		}
		fmt.Println(meta.Sequence.Stream, e.Time.Format(time.RFC3339), e.Type, string(e.Data))
	}
}
