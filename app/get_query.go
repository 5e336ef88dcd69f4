package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

// QueryAnswer is a query as the API and the bus show it. Parts whose label
// the user may no longer see are withheld: their text is left out and
// Withheld says why.
type QueryAnswer struct {
	ID               string      `json:"id"`
	Status           string      `json:"status"` // pending, answered or failed
	Answer           string      `json:"answer"`
	Error            string      `json:"error,omitempty"`
	Steps            []QueryStep `json:"steps"`
	FragmentsRead    []string    `json:"fragments_read"`
	FragmentsWritten []string    `json:"fragments_written"`
	Revision         uint64      `json:"revision"`
	// Label is the answer's provenance; absent while pending or withheld.
	Label *events.Label `json:"label,omitempty"`
	// Withheld says why the answer is not shown; empty when it is.
	Withheld string `json:"withheld,omitempty"`
	// GraphRevision is the permission snapshot delivery was checked on.
	GraphRevision uint64 `json:"graph_revision"`
	// Outcome is answer, answer_redacted, refuse or no_memory once the
	// query is answered (see outcome.go); absent before.
	Outcome string `json:"outcome,omitempty"`
	// AsOf is the valid time the query asked about; absent = now.
	AsOf *time.Time `json:"as_of,omitempty"`
}

// QueryStep is one agent turn.
type QueryStep struct {
	Agent         string         `json:"agent"`
	Subquery      string         `json:"subquery"`
	Response      string         `json:"response"`
	Refused       string         `json:"refused,omitempty"`
	ResourceCalls []ResourceCall `json:"resource_calls"`
	// FragmentsCited are the fragments the response was drawn from (its
	// supporting fragments, among those the step read); absent when
	// withheld or when it cites none.
	FragmentsCited []string `json:"fragments_cited,omitempty"`
	// Label is the provenance of the step's subquery, response and calls;
	// absent when withheld.
	Label *events.Label `json:"label,omitempty"`
	// Withheld says why the step's content is not shown; empty when it is.
	Withheld string `json:"withheld,omitempty"`
}

// ResourceCall is one tool call of a step.
type ResourceCall struct {
	Resource   string         `json:"resource"`
	Arguments  map[string]any `json:"arguments,omitempty"`
	DurationMS float64        `json:"duration_ms"`
	Error      string         `json:"error,omitempty"`
}

// Query returns the query id, waiting up to wait for it to finish. Only its
// user or an admin may see it, and what it shows is checked against the
// user's permissions now, every time it is served (see deliver). done
// reports whether it has finished.
func (a *App) Query(ctx context.Context, by domain.Identity, id string, wait time.Duration) (QueryAnswer, bool, error) {
	if err := events.CheckID(id); err != nil {
		return QueryAnswer{}, false, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
	}
	q, ok := a.queries.Get(id)
	if !ok { // submitted a moment ago through another gateway?
		if err := a.fence(ctx, "queries/", 0); err != nil {
			return QueryAnswer{}, false, err
		}
		if q, ok = a.queries.Get(id); !ok {
			var err error
			if q, ok, err = a.archived(ctx, id); err != nil {
				return QueryAnswer{}, false, err
			}
			if !ok {
				return QueryAnswer{}, false, fmt.Errorf("%w: query %s", domain.ErrNotFound, id)
			}
		}
	}
	if !by.Admin && by.ID != q.User {
		return QueryAnswer{}, false, fmt.Errorf("%w: query %s belongs to another user", domain.ErrForbidden, id)
	}
	if !q.Done && wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, wait)
		q, _ = a.queries.Wait(wctx, id)
		cancel()
	}
	ans, err := a.deliver(ctx, by, q, ChannelHTTP)
	return ans, q.Done, err
}

// archived rebuilds a finished query evicted from memory from the log.
func (a *App) archived(ctx context.Context, id string) (query.Query, bool, error) {
	if a.archive == nil {
		return query.Query{}, false, nil
	}
	q, ok, err := a.archive.Load(ctx, id)
	if err != nil {
		return query.Query{}, false, fmt.Errorf("%w: query archive: %w", domain.ErrUnavailable, err)
	}
	return q, ok, nil
}
