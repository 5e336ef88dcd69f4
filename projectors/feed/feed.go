package feed

import (
	"sync"
	"time"

	"github.com/cmem/cmem/events"
)

// Event is the metadata of one event: what happened, when, and the ids it
// is about. It never holds content (texts, values, answers, tokens).
type Event struct {
	Revision uint64    `json:"revision"`
	Type     string    `json:"type"`
	Time     time.Time `json:"time"`
	Actor    string    `json:"actor,omitempty"`
	// User is the user the event is about: the grantee, the registered
	// user, the owner of a query, fragment or memory read.
	User     string `json:"user,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Resource string `json:"resource,omitempty"`
	Query    string `json:"query,omitempty"`
	Fragment string `json:"fragment,omitempty"`
	Tier     string `json:"tier,omitempty"`
}

// DefaultCapacity is how many recent events a Feed keeps for subscribers
// that resume after a reconnect.
const DefaultCapacity = 2048

// subscriberBuffer is how many events a subscriber may fall behind before
// it is dropped (its channel closed); it then resumes from the ring.
const subscriberBuffer = 512

// Feed is the live feed projection. The zero value is not usable; call New.
type Feed struct {
	mu       sync.Mutex
	capacity int
	// ring holds at most capacity events; once full, oldest is the index
	// of the oldest and each new event overwrites it (moving the whole
	// ring down by one for every event cost more than the rest of the
	// projections together under a stream of commands).
	ring     []Event
	oldest   int
	revision uint64
	subs     map[*subscriber]struct{}
}

type subscriber struct {
	ch chan Event
}

// New returns a feed that keeps the last capacity events (DefaultCapacity
// if capacity <= 0).
func New(capacity int) *Feed {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	return &Feed{capacity: capacity, subs: map[*subscriber]struct{}{}}
}

// Name implements projectors.Projection.
func (*Feed) Name() string { return "feed" }

// Apply implements projectors.Projection: it records r's metadata and hands
// it to every subscriber. A subscriber too slow to take it is dropped, so
// the log never waits on a browser.
func (f *Feed) Apply(r events.Record) error {
	e := Summarize(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Revision <= f.revision {
		return nil
	}
	f.revision = r.Revision
	if len(f.ring) < f.capacity {
		f.ring = append(f.ring, e)
	} else {
		f.ring[f.oldest] = e
		f.oldest = (f.oldest + 1) % len(f.ring)
	}
	for s := range f.subs {
		select {
		case s.ch <- e:
		default:
			close(s.ch)
			delete(f.subs, s)
		}
	}
	return nil
}

// Subscribe returns the kept events after revision after, oldest first,
// and a channel of every event applied from now on; cancel ends the
// subscription. The channel is closed when the subscriber fell too far
// behind (or after cancel); resume with the last revision seen.
func (f *Feed) Subscribe(after uint64) (backlog []Event, ch <-chan Event, cancel func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.ring {
		if e := f.ring[(f.oldest+i)%len(f.ring)]; e.Revision > after {
			backlog = append(backlog, e)
		}
	}
	s := &subscriber{ch: make(chan Event, subscriberBuffer)}
	f.subs[s] = struct{}{}
	return backlog, s.ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if _, ok := f.subs[s]; ok {
			delete(f.subs, s)
			close(s.ch)
		}
	}
}

// Revision is the newest revision applied.
func (f *Feed) Revision() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.revision
}
