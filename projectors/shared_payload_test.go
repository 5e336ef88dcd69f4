package projectors_test

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// recorder keeps the payload each record decodes to, by revision.
type recorder struct {
	name string
	mu   sync.Mutex
	got  map[uint64]events.Payload
	recs map[uint64]events.Record
}

func (r *recorder) Name() string { return r.name }

func (r *recorder) Apply(rec events.Record) error {
	p, err := rec.Decode()
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[rec.Revision], r.recs[rec.Revision] = p, rec
	return nil
}

// TestProjectionsShareOneDecodedPayload: the runner decodes each event
// once and every projection gets that one value, equal to what a fresh
// decode of the stored data gives.
func TestProjectionsShareOneDecodedPayload(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	payloads := []events.Payload{
		&events.UserAgentGranted{User: "u", Agent: "a"},
		&events.AgentResourceGranted{Agent: "a", Resource: "r"},
		&events.UserAgentRevoked{User: "u", Agent: "a"},
	}
	for _, p := range payloads {
		e, err := events.New(events.Meta{Source: "test", Actor: "admin"}, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	a := &recorder{name: "a", got: map[uint64]events.Payload{}, recs: map[uint64]events.Record{}}
	b := &recorder{name: "b", got: map[uint64]events.Payload{}, recs: map[uint64]events.Record{}}
	r, stop := startRunner(t, l, a, b)
	defer stop()
	waitFor(t, r, uint64(len(payloads)))
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	for rev := uint64(1); rev <= uint64(len(payloads)); rev++ {
		pa, pb := a.got[rev], b.got[rev]
		if pa == nil || pa != pb {
			t.Fatalf("revision %d: projections got %p and %p, want one shared payload", rev, pa, pb)
		}
		fresh, err := a.recs[rev].Envelope.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh, pa) || !reflect.DeepEqual(pa, payloads[rev-1]) {
			t.Fatalf("revision %d: shared payload %+v, fresh decode %+v, written %+v", rev, pa, fresh, payloads[rev-1])
		}
	}
}
