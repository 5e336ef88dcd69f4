package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

// QueryLister lists queries, newest first (implemented by
// *query.Projection). It is asked for by type assertion on the query view.
type QueryLister interface {
	List(user string, n int) []query.Query
}

// MaxQueryList bounds one answer of ListQueries.
const MaxQueryList = 1000

// ListQuery selects queries: of User (a user may name only itself; an
// admin "" = everyone), submitted in [From, To), newest first, at most
// Limit (default 50, cap MaxQueryList).
type ListQuery struct {
	User     string
	From, To *time.Time
	Limit    int
}

// QueryItem is one query of a listing: the query as Query serves it, with
// who asked what and when.
type QueryItem struct {
	QueryAnswer
	User        string    `json:"user"`
	Text        string    `json:"text"`
	SubmittedAt time.Time `json:"submitted_at"`
}

// ListQueries lists queries. Every item is checked and rendered as Query
// (GET /v1/queries/{id}) does — ownership, then delivery against the
// user's permissions (render) — and the whole listing is recorded as one
// QueriesListed event holding each item's delivery, so the audit judges
// every query shown while a page view appends one event.
func (a *App) ListQueries(ctx context.Context, by domain.Identity, q ListQuery) ([]QueryItem, error) {
	if q.User != "" && !by.Admin && q.User != by.ID {
		return nil, fmt.Errorf("%w: %s may list only its own queries", domain.ErrForbidden, by.ID)
	}
	if q.User != "" {
		if err := events.CheckID(q.User); err != nil {
			return nil, fmt.Errorf("%w: user: %w", domain.ErrInvalid, err)
		}
	}
	if q.Limit < 0 || q.Limit > MaxQueryList {
		return nil, fmt.Errorf("%w: limit must be within 0..%d", domain.ErrInvalid, MaxQueryList)
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	lister, ok := a.queries.(QueryLister)
	if !ok {
		return nil, fmt.Errorf("%w: this query view cannot list", domain.ErrUnavailable)
	}
	if err := a.fence(ctx, "queries/", 0); err != nil {
		return nil, err
	}
	user := q.User
	if !by.Admin {
		user = by.ID
	}
	snap, err := a.grantsSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	// The listing is one read: every query it shows is rendered on one
	// snapshot, with the same rule as a single delivery (render), and
	// recorded in one event, not one per query.
	listing := &events.QueriesListed{Reader: by.ID, Channel: ChannelHTTP, GraphRevision: snap.Revision, Deliveries: []events.QueryDelivered{}}
	out := []QueryItem{}
	// The window is applied before the limit, so the projection is asked
	// for everything in it.
	for _, qq := range lister.List(user, int(^uint(0)>>1)) {
		if q.From != nil && qq.SubmittedAt.Before(*q.From) || q.To != nil && !qq.SubmittedAt.Before(*q.To) {
			continue
		}
		if !by.Admin && qq.User != by.ID {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		ans, rec := a.render(qq, snap)
		ans = a.withOutcome(ctx, ans, qq.Text) // as a single delivery shows it: the outcome, and a governed answer reshaped
		if len(qq.Steps) > 0 || qq.Done {      // nothing shown yet: nothing to record
			rec.Channel = ChannelHTTP
			listing.Deliveries = append(listing.Deliveries, *rec)
		}
		out = append(out, QueryItem{QueryAnswer: ans, User: qq.User, Text: qq.Text, SubmittedAt: qq.SubmittedAt})
	}
	if len(listing.Deliveries) > 0 {
		// Recorded at the clock its snapshot judged grant expiries against.
		if _, err := a.appendAt(ctx, by, listing, "", snap.Clock); err != nil {
			return nil, err
		}
	}
	return out, nil
}
