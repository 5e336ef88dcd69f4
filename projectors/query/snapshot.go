package query

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/snapshot"
)

// state is the projection as a snapshot holds it. Each query is there
// twice: its skeleton in clear (the query with every text erased: ids,
// agents, fragments, labels, status), and the whole query sealed under the
// query's data key. A restore whose key is gone (the query was erased)
// keeps the skeleton, which is what a rebuild from the log makes of it.
type state struct {
	Queries  []sealedQuery
	ByUser   map[string][]string
	Finished []string
}

type sealedQuery struct {
	Skeleton []byte // JSON of the erased query
	Sealed   string // the query's JSON, sealed; "" when its key was gone
}

var _ snapshot.Freezer = (*Projection)(nil)

// MarshalSnapshot implements snapshot.Section.
func (qs *Projection) MarshalSnapshot(ctx context.Context, s snapshot.Sealer) ([]byte, error) {
	return qs.FreezeSnapshot()(ctx, s)
}

// FreezeSnapshot implements snapshot.Freezer: every query is cloned;
// skeletons are encoded and queries sealed when the result runs.
func (qs *Projection) FreezeSnapshot() snapshot.Frozen {
	qs.mu.RLock()
	st := state{ByUser: make(map[string][]string, len(qs.byUser)), Finished: append([]string(nil), qs.finished...)}
	all := make([]Query, 0, len(qs.byID))
	for _, q := range qs.byID {
		all = append(all, q.clone())
	}
	for u, ids := range qs.byUser {
		st.ByUser[u] = append([]string(nil), ids...)
	}
	qs.mu.RUnlock()
	return func(ctx context.Context, s snapshot.Sealer) ([]byte, error) { return st.seal(ctx, s, all) }
}

func (st state) seal(ctx context.Context, s snapshot.Sealer, all []Query) ([]byte, error) {
	st.Queries = make([]sealedQuery, 0, len(all))
	for _, q := range all {
		var sq sealedQuery
		skel := q.clone()
		skel.erase()
		var err error
		if sq.Skeleton, err = json.Marshal(skel); err != nil {
			return nil, fmt.Errorf("query: encode snapshot of %s: %w", q.ID, err)
		}
		if !q.Erased {
			plain, err := json.Marshal(q)
			if err != nil {
				return nil, fmt.Errorf("query: encode snapshot of %s: %w", q.ID, err)
			}
			sq.Sealed, err = s.Seal(ctx, events.DataSubject{User: q.User, Query: q.ID}, plain)
			if err != nil && !errors.Is(err, snapshot.ErrGone) {
				return nil, err
			}
		}
		st.Queries = append(st.Queries, sq)
	}
	return snapshot.EncodeJSON("query", st)
}

// RestoreSnapshot implements snapshot.Section.
func (qs *Projection) RestoreSnapshot(ctx context.Context, s snapshot.Sealer, revision uint64, data []byte) (func(), error) {
	var st state
	if err := snapshot.DecodeJSON("query", data, &st); err != nil {
		return nil, err
	}
	byID := make(map[string]*Query, len(st.Queries))
	for _, sq := range st.Queries {
		q := &Query{}
		if err := json.Unmarshal(sq.Skeleton, q); err != nil {
			return nil, fmt.Errorf("query: decode snapshot: %w", err)
		}
		if sq.Sealed != "" {
			plain, err := s.Open(ctx, sq.Sealed)
			switch {
			case errors.Is(err, snapshot.ErrGone): // erased since: the skeleton stays
			case err != nil:
				return nil, fmt.Errorf("query: open snapshot of %s: %w", q.ID, err)
			default:
				id := q.ID
				q = &Query{}
				if err := json.Unmarshal(plain, q); err != nil {
					return nil, fmt.Errorf("query: decode snapshot of %s: %w", id, err)
				}
				if q.ID != id {
					return nil, fmt.Errorf("query: snapshot of %s does not match its skeleton", id)
				}
			}
		}
		byID[q.ID] = q
	}
	if st.ByUser == nil {
		st.ByUser = map[string][]string{}
	}
	return func() {
		qs.mu.Lock()
		defer qs.mu.Unlock()
		qs.revision, qs.byID, qs.byUser, qs.done = revision, byID, st.ByUser, map[string]chan struct{}{}
		qs.finished = nil
		if qs.retain > 0 {
			qs.finished = st.Finished
			if len(qs.finished) == 0 { // the writer kept every query: oldest finished first
				qs.finished = finishedByRevision(byID)
			}
			for len(qs.finished) > qs.retain { // this process may keep fewer than the writer did
				delete(qs.byID, qs.finished[0])
				qs.finished = qs.finished[1:]
			}
		}
	}, nil
}

func finishedByRevision(byID map[string]*Query) []string {
	var done []*Query
	for _, q := range byID {
		if q.Done {
			done = append(done, q)
		}
	}
	slices.SortFunc(done, func(a, b *Query) int { return cmp.Compare(a.Revision, b.Revision) })
	ids := make([]string, len(done))
	for i, q := range done {
		ids[i] = q.ID
	}
	return ids
}
