package shred_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/shred"
)

// fixedKeys is a keyring of one key that is never destroyed: the
// benchmark measures opening, not the key store.
type fixedKeys struct{ key []byte }

func (k fixedKeys) DataKey(context.Context, events.DataSubject) (string, []byte, error) {
	return "k1", k.key, nil
}

func (k fixedKeys) Key(context.Context, string) ([]byte, error) { return k.key, nil }

// memSource serves stored events from memory, opened by a sealer as the
// log opens them: the runner's own cost with no server behind it.
type memSource struct {
	msgs   []eventlog.Msg
	sealer *shred.Sealer
}

func (m *memSource) Follow(ctx context.Context, from uint64, fn func(eventlog.Msg) error) error {
	for _, msg := range m.msgs[from-1:] {
		if err := fn(msg); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return ctx.Err()
}

func (m *memSource) DeadLetter(context.Context, string, eventlog.Msg, string) error { return nil }

func (m *memSource) Open(ctx context.Context, e events.Envelope) (events.Envelope, error) {
	return m.sealer.Open(ctx, e)
}

func (m *memSource) OpenPayload(ctx context.Context, e events.Envelope) (events.Envelope, events.Payload, error) {
	return m.sealer.OpenPayload(ctx, e)
}

// BenchmarkRunnerInMemory is the projection runner's CPU per event over
// BenchmarkSealing's workload served from memory, in clear and sealed:
// the check stage (envelope, schema check, opening, decode) and the
// appliers, without the log server, whose share the end-to-end benchmark
// cannot separate from the runner's on a loaded machine.
func BenchmarkRunnerInMemory(b *testing.B) {
	ctx := context.Background()
	v, err := events.DefaultValidator()
	if err != nil {
		b.Fatal(err)
	}
	sealer := shred.NewSealer(fixedKeys{key: make([]byte, 32)})
	for _, sealed := range []bool{false, true} {
		es := workload(b)
		msgs := make([]eventlog.Msg, len(es))
		for i, e := range es {
			raw, err := v.Marshal(e)
			if err != nil {
				b.Fatal(err)
			}
			if sealed && events.HasContent(e.Type) {
				if e, err = sealer.Seal(ctx, e); err != nil {
					b.Fatal(err)
				}
				if raw, err = json.Marshal(e); err != nil {
					b.Fatal(err)
				}
			}
			msgs[i] = eventlog.Msg{Revision: uint64(i + 1), Data: raw, Pending: uint64(len(es) - i - 1)}
		}
		name := map[bool]string{false: "clear", true: "sealed"}[sealed]
		b.Run(name, func(b *testing.B) {
			var cpu float64
			for b.Loop() {
				src := &memSource{msgs: msgs, sealer: sealer}
				r, err := projectors.NewRunner(src, nil, memory.NewFragments(), query.NewProjection())
				if err != nil {
					b.Fatal(err)
				}
				c0 := benchfig.ProcessCPU()
				rctx, cancel := context.WithCancel(ctx)
				done := make(chan struct{})
				go func() { defer close(done); _ = r.Run(rctx) }()
				if err := r.WaitFor(ctx, uint64(len(msgs))); err != nil {
					b.Fatal(err)
				}
				cpu += float64((benchfig.ProcessCPU() - c0).Nanoseconds())
				cancel()
				<-done
			}
			b.ReportMetric(cpu/float64(b.N*len(msgs))/1000, "cpu-µs/event")
		})
	}
}
