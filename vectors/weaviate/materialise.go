package weaviate

import (
	"context"
	"sync"
	"time"
)

// pageSize is how many objects one page of a pass reads (and at
// most PATCHes) while it holds the registry's write lock.
const pageSize = 200

// gcEvery is how often the materialiser drops idle reader classes (it
// also does at each wake, which is when a class is registered).
const gcEvery = time.Minute

// startMaterialiser runs the steps in the background until Close: a
// shared Store reads the persisted registry every refreshEvery in a
// goroutine of its own, so that a long pass never ages its ready flags.
func (s *Store) startMaterialiser() {
	r := s.labels
	ctx, cancel := context.WithCancel(context.Background())
	r.stop, r.done = cancel, make(chan struct{})
	r.mu.RLock()
	shared, refresh := r.shared, r.refresh
	r.mu.RUnlock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.loop(ctx, gcEvery, r.wake, s.materialiseStep)
	}()
	if shared {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, refresh, nil, s.syncStep)
		}()
	}
	go func() {
		wg.Wait()
		close(r.done)
	}()
}

// loop runs step at each tick of every and each wake (nil: none), until
// ctx ends; a failed step is logged and tried again.
func (s *Store) loop(ctx context.Context, every time.Duration, wake <-chan struct{}, step func(context.Context) error) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
		if err := step(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Logger.Warn("weaviate: reader labels not materialised or read; searches keep the exclusion filter",
				"class", s.cfg.Class, "err", err)
		}
	}
}

// syncStep is the shared Store's read of the persisted registry; a Store
// that does not write the class then asks there for its new classes and
// records when it used the others.
func (s *Store) syncStep(ctx context.Context) error {
	writer := s.writes(ctx)
	if err := s.sync(ctx, writer); err != nil {
		return err
	}
	if writer {
		return nil
	}
	return s.request(ctx)
}

// materialiseStep evicts and materialises when this Store writes the
// class (it alone, or it holds the lease).
func (s *Store) materialiseStep(ctx context.Context) error {
	if !s.writes(ctx) {
		return nil
	}
	r := s.labels
	evicted, err := s.evict(ctx, time.Now())
	r.mu.Lock()
	r.strip = evicted || r.strip
	strip := r.strip
	r.mu.Unlock()
	if err == nil {
		err = s.materialise(ctx, strip)
	}
	if err == nil && strip {
		r.mu.Lock()
		r.strip = false
		r.mu.Unlock()
	}
	return err
}

// writes reports whether this Store writes its class's labels now: it is
// not shared, or it holds the lease and the fence passes.
func (s *Store) writes(ctx context.Context) bool {
	r := s.labels
	r.mu.RLock()
	shared, lease := r.shared, r.lease
	r.mu.RUnlock()
	if !shared {
		return true
	}
	return lease != nil && lease.Held() && lease.Check(ctx) == nil
}

// evict drops the idle classes and those beyond MaxReaderClasses: first
// from the persisted registry, then from memory, so that the persisted
// registry never holds a class this Store's writes stop labelling. A
// shared Store keeps labelling with them for leaveGrace first: another
// process may have read them ready until readyValid after its last read
// of the registry. It reports whether any class was dropped (the next
// pass strips it).
func (s *Store) evict(ctx context.Context, now time.Time) (bool, error) {
	r := s.labels
	r.mu.Lock()
	defer r.mu.Unlock()
	victims := r.victimsLocked(now)
	if len(victims) > 0 {
		if err := s.forgetClasses(ctx, victims); err != nil {
			return false, err
		}
		// The grace runs from when the registry no longer holds them:
		// a process that read them ready read it before then.
		until := time.Now().Add(r.grace)
		if !r.shared {
			until = now
		}
		for _, c := range victims {
			c.leaving, c.persisted = until, false
		}
	}
	dropped := false
	for label, c := range r.classes {
		if !c.leaving.IsZero() && !now.Before(c.leaving) {
			delete(r.classes, label)
			dropped = true
		}
	}
	return dropped, nil
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
// registered. A shared Store checks the lease's fence before each page
// and before it records the classes ready.
func (s *Store) materialise(ctx context.Context, strip bool) error {
	r := s.labels
	r.mu.RLock()
	hook, page := r.beforePass, r.page
	var pending []*readerClass
	var labels []string
	for _, c := range r.classes {
		if !c.ready && c.leaving.IsZero() {
			pending = append(pending, c)
			labels = append(labels, c.label)
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
		hook(labels)
	}
	for after := ""; ; {
		if !s.writes(ctx) {
			return errNotWriter
		}
		last, n, err := s.materialisePage(ctx, after)
		if err != nil {
			return err
		}
		if n < page {
			break
		}
		after = last
	}
	if !s.writes(ctx) {
		return errNotWriter
	}
	r.mu.Lock()
	for _, c := range pending {
		c.ready = c.leaving.IsZero() // evicted during the pass: it is leaving, and stays unready
	}
	r.mu.Unlock()
	// Counted before the ready flags are persisted: another process may
	// read them the moment they are, and must never see a ready flag of a
	// pass not yet counted.
	r.passes.Add(1)
	// A failure here leaves them persisted not ready: a restart
	// materialises them again.
	err := s.persistClasses(ctx, pending)
	r.mu.Lock()
	close(r.passed)
	r.passed = make(chan struct{})
	r.mu.Unlock()
	return err
}
