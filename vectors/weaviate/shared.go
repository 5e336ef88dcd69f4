package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
)

// A shared class (Config.Shared, or a Store under Leased) is written by
// whichever process holds a lease, and searched by every process. The
// persisted registry (registry.go) is how they agree on labels:
//
//   - the writer (the holder, its fence passing) labels its writes with
//     every class it knows, materialises, and alone persists a class
//     ready; it reads the persisted registry before each write, so a
//     process that has just taken the lease over labels with every class
//     its predecessor persisted, and takes the ones it never labelled
//     with as pending (not ready) until its own pass;
//   - every other process reads the persisted registry every
//     refreshEvery and searches through a class's label only while the
//     last read that called it ready is younger than readyValid; a class
//     it has not seen ready it searches with the exclusion filter, and
//     asks for by writing it to the persisted registry, not ready;
//   - the writer evicts a class by forgetting it in the persisted
//     registry and keeps labelling with it for leaveGrace, longer than
//     readyValid, so that no process searches through a label the writer
//     has stopped maintaining.
//
// Every hit of a label is checked in Go against its class and the allowed
// sets whatever the flags say, so a wrong flag can shorten an answer but
// never leak; a grant or a revoke is a new class, searched with the
// exclusion filter until it is ready.
const (
	refreshEvery = time.Second
	readyValid   = 5 * time.Second
	leaveGrace   = 15 * time.Second
)

// errNotWriter ends a pass whose Store lost the lease during it.
var errNotWriter = errors.New("weaviate: not the writer of the class: the pass stops")

// sync merges the persisted registry into this Store's: see the comment
// above for what writer changes.
func (s *Store) sync(ctx context.Context, writer bool) error {
	start := time.Now()
	es, err := s.readRegistry(ctx)
	if err != nil {
		return err
	}
	r := s.labels
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool, len(es))
	pending := false
	for _, e := range es {
		seen[e.class.label] = true
		c := r.classes[e.class.label]
		if c == nil {
			c = e.class
			c.ready = e.ready && !writer // a writer passes a class it never labelled with before it calls it ready
			c.persisted, c.pushed = true, e.used
			c.used.Store(e.used)
			r.classes[c.label] = c
			pending = pending || !c.ready
			continue
		}
		if e.used > c.used.Load() {
			c.used.Store(e.used)
		}
		c.pushed, c.persisted = max(c.pushed, e.used), true
		switch {
		case !c.leaving.IsZero(): // asked for again while it was leaving
			c.leaving, c.ready, pending = time.Time{}, false, true
		case !writer:
			c.ready = e.ready
		}
	}
	for label, c := range r.classes {
		if seen[label] || !c.persisted {
			continue // a class asked for here and not yet persisted stays
		}
		// Forgotten in the persisted registry by a writer: a former
		// holder's eviction (or this one's, while leaving).
		switch {
		case !c.leaving.IsZero():
		case writer:
			c.ready, c.persisted, pending = false, false, true
		default:
			delete(r.classes, label)
		}
	}
	for _, c := range r.classes {
		// A class whose grace has passed is dropped by the materialiser.
		pending = pending || (!c.leaving.IsZero() && !start.Before(c.leaving))
	}
	if start.After(r.syncedAt) {
		r.syncedAt = start
	}
	if pending && writer {
		r.signal()
	}
	return nil
}

// request writes the classes registered here and absent from the
// persisted registry to it, not ready, for the writer to materialise, and
// records there the searches through the others since the last record
// (once in a quarter of ReaderClassIdle), so that the writer does not
// evict a class only other processes search.
func (s *Store) request(ctx context.Context) error {
	r := s.labels
	r.mu.RLock()
	var asks, used []*readerClass
	for _, c := range r.classes {
		switch {
		case !c.leaving.IsZero():
		case !c.persisted:
			asks = append(asks, c)
		case c.used.Load()-c.pushed > int64(r.idle/4):
			used = append(used, c)
		}
	}
	r.mu.RUnlock()
	var errs []error
	for _, c := range asks {
		errs = append(errs, s.ask(ctx, c))
	}
	for _, c := range used {
		errs = append(errs, s.recordUse(ctx, c))
	}
	return errors.Join(errs...)
}

// ask creates c's entry, not ready, unless it exists: a create, never an
// overwrite, so that it cannot turn a ready flag the writer set back.
func (s *Store) ask(ctx context.Context, c *readerClass) error {
	s.labels.mu.RLock()
	o, err := s.record(c)
	s.labels.mu.RUnlock()
	if err != nil {
		return err
	}
	props := o.Properties.(map[string]any)
	props[regReady] = false
	_, err = s.client.Data().Creator().WithClassName(s.registryClass()).WithID(string(o.ID)).WithProperties(props).Do(ctx)
	var ue *fault.WeaviateClientError
	exists := errors.As(err, &ue) && ue.StatusCode == http.StatusUnprocessableEntity && strings.Contains(ue.Msg, "already exists")
	if err != nil && !exists {
		return fmt.Errorf("weaviate: ask for reader class %s: %w", c.label, err)
	}
	s.labels.mu.Lock()
	c.persisted = true
	s.labels.mu.Unlock()
	return nil
}

// recordUse writes c's last use to its entry; a missing entry (evicted)
// is asked for again at the next step.
func (s *Store) recordUse(ctx context.Context, c *readerClass) error {
	used := c.used.Load()
	err := s.client.Data().Updater().WithMerge().WithClassName(s.registryClass()).WithID(string(s.registryID(c.label))).
		WithProperties(map[string]any{regUsed: used / int64(time.Millisecond)}).Do(ctx)
	var ue *fault.WeaviateClientError
	s.labels.mu.Lock()
	defer s.labels.mu.Unlock()
	switch {
	case errors.As(err, &ue) && ue.StatusCode == http.StatusNotFound:
		c.persisted = false
		return nil
	case err != nil:
		return fmt.Errorf("weaviate: record the use of reader class %s: %w", c.label, err)
	}
	c.pushed = used
	return nil
}

// share makes s's labels those of a shared class written under lease
// (nil: by no process of this Store's); the materialiser restarts with
// the shared step.
func (s *Store) share(lease Lease) {
	r := s.labels
	if r == nil {
		return
	}
	s.stopMaterialiser()
	r.mu.Lock()
	r.shared, r.lease = true, lease
	r.mu.Unlock()
	s.startMaterialiser()
	r.signal()
}
