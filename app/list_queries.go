package app

import (
	"context"
	"errors"
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

// ListQueries lists queries. Every item goes through Query, the same use
// case as GET /v1/queries/{id}, so whatever Query checks before it serves
// a query (ownership, delivery against the reader's permissions) holds for
// the list too; an item Query refuses is left out.
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
	out := []QueryItem{}
	// The window is applied before the limit, so the projection is asked
	// for everything in it.
	for _, qq := range lister.List(user, int(^uint(0)>>1)) {
		if q.From != nil && qq.SubmittedAt.Before(*q.From) || q.To != nil && !qq.SubmittedAt.Before(*q.To) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		ans, _, err := a.Query(ctx, by, qq.ID, 0)
		if errors.Is(err, domain.ErrForbidden) || errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, QueryItem{QueryAnswer: ans, User: qq.User, Text: qq.Text, SubmittedAt: qq.SubmittedAt})
	}
	return out, nil
}
