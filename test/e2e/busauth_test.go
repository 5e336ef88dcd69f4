package e2e_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

const readerToken = "test-reader-token-0123456789"

// violations collects the server's permission errors on one connection.
type violations struct {
	mu   sync.Mutex
	errs []string
}

func (v *violations) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.errs = append(v.errs, err.Error())
}

func (v *violations) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.errs)
}

// waitViolations waits until want permission errors arrived (never more).
func (v *violations) wait(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for v.count() < want && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.errs) != want {
		t.Fatalf("%d permission violations, want %d: %v", len(v.errs), want, v.errs)
	}
	for _, e := range v.errs {
		if !strings.Contains(strings.ToLower(e), "permissions violation") {
			t.Fatalf("not a permission violation: %s", e)
		}
	}
}

func droppedReplies(t *testing.T) float64 {
	t.Helper()
	return metricSum(t, "cmem_bus_replies_dropped_total")
}

// metricSum adds up every series of the named metric in this process.
func metricSum(t *testing.T, name string) float64 {
	t.Helper()
	mfs, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

func streamMsgs(t *testing.T, n *node.Node, name string) uint64 {
	t.Helper()
	s, err := n.Log.JetStream().Stream(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// Every credential cmem hands out — a user's token, an admin user's token —
// is refused every subject that would let it write the log, use the
// JetStream API (delete, purge, reconfigure a stream), act as another user
// or read another user's replies; a reply subject outside the asker's
// inboxes gets nothing, errors included. The bootstrap admin token does not
// get onto the bus at all. Afterwards both streams hold what they held.
func TestBusRefusesEveryForbiddenSubject(t *testing.T) {
	n, c := nodetest.StartClient(t, func(c *node.Config) { c.ReaderToken = readerToken })
	tokens := map[string]string{"alice": c.User("alice", "user"), "root": c.User("root", "admin")}
	c.User("bob", "user")
	events0, dead0 := streamMsgs(t, n, "CMEM_EVENTS"), streamMsgs(t, n, "CMEM_DEADLETTER")

	// bob listens to his inbox and answers, as cmem's service would let him.
	spy, err := nats.Connect(n.Log.ConnectURL())
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	leaked := make(chan *nats.Msg, 64)
	for _, s := range []string{"_INBOX.bob.>", "cmem.answers.bob", "cmem.events.>", "$JS.API.>"} {
		if _, err := spy.ChanSubscribe(s, leaked); err != nil {
			t.Fatal(err)
		}
	}
	_ = spy.Flush()

	publish := []string{"cmem.events.users.charlie", "cmem.events.grants.x", "cmem.deadletter.x", "cmem.query.bob",
		"cmem.answers.bob", "_INBOX.bob.1", "$JS.API.STREAM.DELETE.CMEM_EVENTS", "$JS.API.STREAM.PURGE.CMEM_EVENTS",
		"$JS.API.STREAM.UPDATE.CMEM_EVENTS", "$JS.API.STREAM.MSG.DELETE.CMEM_EVENTS", "$JS.API.STREAM.DELETE.CMEM_DEADLETTER",
		"$JS.API.CONSUMER.CREATE.CMEM_EVENTS", "$JS.API.CONSUMER.DELETE.CMEM_EVENTS.cmem-coordinator", "$JS.API.INFO"}
	subscribe := []string{">", "cmem.events.>", "cmem.query.>", "cmem.answers.bob", "cmem.answers.*", "_INBOX.>",
		"_INBOX.bob.>", "_INBOX.*.>", "$JS.API.>", "_CMEM_READER.>"}
	replies := []string{"cmem.events.users.charlie", "_INBOX.bob.1", "cmem.answers.bob", "$JS.API.STREAM.DELETE.CMEM_EVENTS",
		"_INBOX.>", "_INBOX.root.1"}
	before := droppedReplies(t)
	for who, token := range tokens {
		t.Run(who, func(t *testing.T) {
			var v violations
			nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(token), nats.CustomInboxPrefix("_INBOX."+who),
				nats.ErrorHandler(v.handler))
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			for _, s := range publish {
				_ = nc.Publish(s, []byte(`{"type":"UserRegistered"}`))
			}
			for _, s := range subscribe {
				_, _ = nc.Subscribe(s, func(*nats.Msg) {})
			}
			_ = nc.Flush()
			v.wait(t, len(publish)+len(subscribe))
			for _, r := range replies {
				if r == "_INBOX.root.1" && who == "root" {
					continue
				}
				_ = nc.PublishRequest("cmem.query."+who, r, []byte(`{"text":"What food is Lyon famous for?"}`))
				_ = nc.PublishRequest("cmem.query."+who, r, []byte(`not json`))
			}
			// The ingress takes one subscription's messages in order: the
			// answer to this request means every message above was handled.
			msg, err := nc.Request("cmem.query."+who, []byte(`not json`), 20*time.Second)
			if err != nil || !strings.Contains(string(msg.Data), `"code":"invalid"`) {
				t.Fatalf("own inbox: %v %s", err, msgData(msg))
			}
		})
	}
	wantDropped := float64(2 * (2*len(replies) - 1))
	if got := droppedReplies(t) - before; got != wantDropped {
		t.Errorf("cmem_bus_replies_dropped_total grew by %v, want %v", got, wantDropped)
	}
	_ = spy.Flush()
	for {
		select {
		case m := <-leaked:
			// cmem's own fence on users/ (every bus connect is
			// authenticated as of the log head) is the spy's only
			// legitimate traffic; nothing in publish asks it.
			if m.Subject == "$JS.API.STREAM.MSG.GET.CMEM_EVENTS" && strings.Contains(string(m.Data), `"last_by_subj"`) {
				continue
			}
			t.Fatalf("a forbidden subject reached a listener: %s %s", m.Subject, m.Data)
		default:
		}
		break
	}
	if e, d := streamMsgs(t, n, "CMEM_EVENTS"), streamMsgs(t, n, "CMEM_DEADLETTER"); e != events0 || d != dead0 {
		t.Fatalf("streams changed: events %d -> %d, dead letters %d -> %d", events0, e, dead0, d)
	}
	if nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(nodetest.AdminToken)); err == nil {
		nc.Close()
		t.Fatal("the bootstrap admin token got onto the bus")
	}
}

func msgData(m *nats.Msg) string {
	if m == nil {
		return ""
	}
	return string(m.Data)
}

// The reader token reads the event stream with an ordered consumer, and
// can neither write an event nor delete or purge the stream.
func TestReaderGrantIsReadOnly(t *testing.T) {
	n, c := nodetest.StartClient(t, func(c *node.Config) { c.ReaderToken = readerToken })
	c.User("alice", "user")
	total := streamMsgs(t, n, "CMEM_EVENTS")

	var v violations
	nc, err := nats.Connect(n.Log.ClientURL(), nats.Token(readerToken), nats.CustomInboxPrefix(subjects.ReaderInbox))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, "CMEM_EVENTS", jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(int(total))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for range batch.Messages() {
		got++
	}
	if got != int(total) {
		t.Fatalf("reader read %d of %d events (%v)", got, total, batch.Error())
	}
	// (a second connection: the ordered consumer's own clean-up, a delete
	// of its ephemeral consumer, is refused too, harmlessly.)
	nc2, err := nats.Connect(n.Log.ClientURL(), nats.Token(readerToken), nats.CustomInboxPrefix(subjects.ReaderInbox),
		nats.ErrorHandler(v.handler))
	if err != nil {
		t.Fatal(err)
	}
	defer nc2.Close()
	forbidden := []string{"cmem.events.users.mallory", "$JS.API.STREAM.DELETE.CMEM_EVENTS", "$JS.API.STREAM.PURGE.CMEM_EVENTS",
		"$JS.API.STREAM.UPDATE.CMEM_EVENTS", "$JS.API.CONSUMER.DELETE.CMEM_EVENTS.x", "cmem.query.alice", "$JS.ACK.CMEM_EVENTS.x.1.1.1.1.1",
		"$JS.API.CONSUMER.CREATE.CMEM_EVENTS.cmem-coordinator.cmem.events.>", "$JS.API.CONSUMER.MSG.NEXT.CMEM_EVENTS.cmem-replier",
		"$JS.API.CONSUMER.DURABLE.CREATE.CMEM_EVENTS.cmem-agent-runtime"}
	for _, s := range forbidden {
		_ = nc2.Publish(s, []byte(`{}`))
	}
	for _, s := range []string{"_INBOX.alice.>", "cmem.answers.alice", "$JS.API.>"} {
		_, _ = nc2.Subscribe(s, func(*nats.Msg) {})
	}
	_ = nc2.Flush()
	v.wait(t, len(forbidden)+3)
	if after := streamMsgs(t, n, "CMEM_EVENTS"); after != total {
		t.Fatalf("events %d -> %d", total, after)
	}
}
