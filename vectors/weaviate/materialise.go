package weaviate

import (
	"context"
	"time"
)

// materialisePage is how many objects one page of a pass reads (and at
// most PATCHes) while it holds the registry's write lock.
const materialisePage = 200

// gcEvery is how often the materialiser drops idle reader classes.
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
			case now := <-tick.C:
				r.mu.Lock()
				strip = r.evictLocked(now) > 0 || strip
				r.mu.Unlock()
			}
			if err := s.materialise(ctx, strip); err != nil {
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
	hook := r.beforePass
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
	if hook != nil {
		hook()
	}
	for after := ""; ; {
		last, n, err := s.materialisePage(ctx, after)
		if err != nil {
			return err
		}
		if n < materialisePage {
			break
		}
		after = last
	}
	r.mu.Lock()
	for _, c := range pending {
		c.ready = true // evicted meanwhile: unreachable, and a re-registered class is another pointer
	}
	close(r.passed)
	r.passed = make(chan struct{})
	r.mu.Unlock()
	return nil
}
