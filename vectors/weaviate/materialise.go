package weaviate

import (
	"context"
	"time"
)

// pageSize is how many objects one page of a pass reads (and at
// most PATCHes) while it holds the registry's write lock.
const pageSize = 200

// gcEvery is how often the materialiser drops idle reader classes (it
// also does at each wake, which is when a class is registered).
const gcEvery = time.Minute

// startMaterialiser runs the passes in the background until Close.
func (s *Store) startMaterialiser() {
	r := s.labels
	ctx, cancel := context.WithCancel(context.Background())
	r.stop, r.done = cancel, make(chan struct{})
	go func() {
		defer close(r.done)
		tick := time.NewTicker(gcEvery)
		defer tick.Stop()
		strip := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-r.wake:
			case <-tick.C:
			}
			evicted, err := s.evict(ctx, time.Now())
			strip = evicted || strip
			if err == nil {
				err = s.materialise(ctx, strip)
			}
			if err != nil {
				if ctx.Err() == nil {
					s.cfg.Logger.Warn("weaviate: reader labels not materialised; searches keep the exclusion filter",
						"class", s.cfg.Class, "err", err)
				}
				continue
			}
			strip = false
		}
	}()
}

// evict drops the idle classes and those beyond MaxReaderClasses: first
// from the persisted registry, then from memory, so that the persisted
// registry never holds a class this Store's writes stop labelling. It
// reports whether any class was dropped (the next pass strips it).
func (s *Store) evict(ctx context.Context, now time.Time) (bool, error) {
	r := s.labels
	r.mu.Lock()
	defer r.mu.Unlock()
	victims := r.victimsLocked(now)
	if len(victims) == 0 {
		return false, nil
	}
	if err := s.forgetClasses(ctx, victims); err != nil {
		return false, err
	}
	for _, c := range victims {
		delete(r.classes, c.label)
	}
	return true, nil
}

// stopMaterialiser ends the background passes and waits for them.
func (s *Store) stopMaterialiser() {
	if r := s.labels; r != nil && r.stop != nil {
		r.stop()
		<-r.done
	}
}

// materialise runs one pass over the class if a registered class is not
// ready yet (or strip asks to remove the labels of evicted classes): every
// object whose labels differ from what the registry computes for its
// provenance gets them by a merge PATCH of that property alone. The
// classes pending when the pass started are ready when it ends: objects
// written meanwhile were labelled by their upsert, which saw them
// registered.
func (s *Store) materialise(ctx context.Context, strip bool) error {
	r := s.labels
	r.mu.RLock()
	hook, page := r.beforePass, r.page
	var pending []*readerClass
	for _, c := range r.classes {
		if !c.ready {
			pending = append(pending, c)
		}
	}
	r.mu.RUnlock()
	if len(pending) == 0 && !strip {
		return nil
	}
	// Persisted not ready, so that a restart during the pass labels its
	// writes with them and materialises them again.
	if err := s.persistClasses(ctx, pending); err != nil {
		return err
	}
	if hook != nil {
		hook()
	}
	for after := ""; ; {
		last, n, err := s.materialisePage(ctx, after)
		if err != nil {
			return err
		}
		if n < page {
			break
		}
		after = last
	}
	r.mu.Lock()
	for _, c := range pending {
		c.ready = true // still registered: only this goroutine evicts
	}
	r.mu.Unlock()
	// Only this goroutine evicts, so no class of pending has left the
	// persisted registry since the pass began. A failure here leaves
	// them persisted not ready: a restart materialises them again.
	err := s.persistClasses(ctx, pending)
	r.passes.Add(1)
	r.mu.Lock()
	close(r.passed)
	r.passed = make(chan struct{})
	r.mu.Unlock()
	return err
}
