package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/node"
)

// rawStream is the baselines' stream, on the node's own server and
// configured like the event log: file storage, one replica, the server's
// fsync setting, a 10-minute duplicate window, deletes and purges denied,
// atomic publish allowed. Every message carries a Nats-Msg-Id and an
// expected stream, as cmem's appends do, and the size of a grant event.
type rawStream struct {
	js   jetstream.JetStream
	name string
	data []byte
}

func openRawStream(b testing.TB, n *node.Node) *rawStream {
	b.Helper()
	nc, err := nats.Connect(n.Log.ConnectURL())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "BENCH_RAW", Subjects: []string{"bench.raw.>"}, Storage: jetstream.FileStorage,
		Retention: jetstream.LimitsPolicy, Replicas: 1, Duplicates: 10 * time.Minute,
		DenyDelete: true, DenyPurge: true, AllowAtomicPublish: true,
	}); err != nil {
		b.Fatal(err)
	}
	// The size of a stored grant event (envelope, ids, time, correlation id).
	return &rawStream{js: js, name: "BENCH_RAW", data: bytes.Repeat([]byte{'x'}, 420)}
}

// msg is the j-th message of a round, with its message id.
func (r *rawStream) msg(j int, id string) *nats.Msg {
	m := &nats.Msg{Subject: fmt.Sprintf("bench.raw.grants.user-agent.b%d.bench", j), Data: r.data, Header: nats.Header{}}
	m.Header.Set("Cmem-Type", "user_agent_granted")
	m.Header.Set(jetstream.MsgIDHeader, id)
	m.Header.Set(jetstream.ExpectedStreamHeader, r.name)
	return m
}

// syncPublishes runs publishers that each publish and wait for the ack,
// one at a time, for d, and returns publishes/s and the publishes done.
func (r *rawStream) syncPublishes(b *testing.B, publishers int, d time.Duration) (float64, int64) {
	return runFor(b, publishers, d, func(i, k int) (int, error) {
		_, err := r.js.PublishMsg(context.Background(), r.msg(i, fmt.Sprintf("s%d-%d-%d", publishers, i, k)))
		return 1, err
	})
}

// asyncPublishes runs publishers that each publish size messages without
// waiting and then wait for every ack, round after round for d, and
// returns publishes/s and the publishes done.
func (r *rawStream) asyncPublishes(b *testing.B, publishers, size int, d time.Duration) (float64, int64) {
	return runFor(b, publishers, d, func(i, k int) (int, error) {
		futures := make([]jetstream.PubAckFuture, size)
		for j := range futures {
			f, err := r.js.PublishMsgAsync(r.msg(j, fmt.Sprintf("a%d-%d-%d-%d", publishers, i, k, j)))
			if err != nil {
				return 0, err
			}
			futures[j] = f
		}
		for _, f := range futures {
			select {
			case <-f.Ok():
			case err := <-f.Err():
				return 0, err
			}
		}
		return size, nil
	})
}

// atomicPublishes is asyncPublishes with each round sent as one JetStream
// atomic batch (only the commit waits for an answer).
func (r *rawStream) atomicPublishes(b *testing.B, publishers, size int, d time.Duration) float64 {
	nc := r.js.Conn()
	rate, _ := runFor(b, publishers, d, func(i, k int) (int, error) {
		id := fmt.Sprintf("t%d-%d-%d", publishers, i, k)
		for j := range size {
			m := r.msg(j, id+"-"+strconv.Itoa(j))
			m.Header.Set("Nats-Batch-Id", id)
			m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(j+1))
			if j < size-1 {
				if err := nc.PublishMsg(m); err != nil {
					return 0, err
				}
				continue
			}
			m.Header.Set("Nats-Batch-Commit", "1")
			resp, err := nc.RequestMsg(m, 30*time.Second)
			if err != nil {
				return 0, err
			}
			if bytes.Contains(resp.Data, []byte(`"error"`)) {
				return 0, fmt.Errorf("raw atomic commit: %s", resp.Data)
			}
		}
		return size, nil
	})
	return rate
}
