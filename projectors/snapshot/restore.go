package snapshot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Restore installs the newest snapshot in store into sections and returns
// its revision: the runner resumes after it. It returns 0, and leaves every
// section as it was, when there is no snapshot or it cannot be used (other
// format version, corrupt, a section missing or undecodable, newer than
// head, the log's last revision, as after the log was replaced, or the
// store unreachable); the reason is logged and the process rebuilds from
// the log.
func Restore(ctx context.Context, store Store, sealer Sealer, head uint64, logger *slog.Logger, sections ...Section) uint64 {
	if logger == nil {
		logger = slog.Default()
	}
	start := time.Now()
	rev, err := restore(ctx, store, sealer, head, sections)
	switch {
	case errors.Is(err, ErrNone):
		logger.Info("no projection snapshot; rebuilding from the log")
		return 0
	case err != nil:
		logger.Warn("projection snapshot refused; rebuilding from the log", "err", err)
		return 0
	}
	logger.Info("projections restored from a snapshot", "revision", rev, "took", time.Since(start))
	return rev
}

func restore(ctx context.Context, store Store, sealer Sealer, head uint64, sections []Section) (uint64, error) {
	rev, blob, err := store.Newest(ctx)
	if err != nil {
		return 0, err
	}
	if rev > head {
		return 0, fmt.Errorf("snapshot at %d is ahead of the log (head %d)", rev, head)
	}
	h, parts, err := Decode(blob)
	if err != nil {
		return 0, fmt.Errorf("snapshot at %d: %w", rev, err)
	}
	if h.Revision != rev {
		return 0, fmt.Errorf("%w: stored as revision %d, header says %d", ErrCorrupt, rev, h.Revision)
	}
	// Sections decode independently: in parallel, installed together.
	installs := make([]func(), len(sections))
	errs := make([]error, len(sections))
	var wg sync.WaitGroup
	for i, s := range sections {
		data, ok := parts[s.Name()]
		if !ok {
			return 0, fmt.Errorf("snapshot at %d has no section %s", rev, s.Name())
		}
		wg.Go(func() {
			if installs[i], errs[i] = s.RestoreSnapshot(ctx, sealer, rev, data); errs[i] != nil {
				errs[i] = fmt.Errorf("snapshot at %d: section %s: %w", rev, s.Name(), errs[i])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	for _, install := range installs {
		install()
	}
	return rev, nil
}
