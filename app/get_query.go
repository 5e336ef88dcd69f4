package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/query"
)

// QueryAnswer is a query as the API shows it.
type QueryAnswer struct {
	ID               string      `json:"id"`
	Status           string      `json:"status"` // pending, answered or failed
	Answer           string      `json:"answer"`
	Error            string      `json:"error,omitempty"`
	Steps            []QueryStep `json:"steps"`
	FragmentsRead    []string    `json:"fragments_read"`
	FragmentsWritten []string    `json:"fragments_written"`
	Revision         uint64      `json:"revision"`
}

// QueryStep is one agent turn.
type QueryStep struct {
	Agent         string         `json:"agent"`
	Subquery      string         `json:"subquery"`
	Response      string         `json:"response"`
	Refused       string         `json:"refused,omitempty"`
	ResourceCalls []ResourceCall `json:"resource_calls"`
}

// ResourceCall is one tool call of a step.
type ResourceCall struct {
	Resource   string         `json:"resource"`
	Arguments  map[string]any `json:"arguments"`
	DurationMS float64        `json:"duration_ms"`
	Error      string         `json:"error,omitempty"`
}

// Query returns the query id, waiting up to wait for it to finish. Only its
// user or an admin may see it. done reports whether it has finished.
func (a *App) Query(ctx context.Context, by Identity, id string, wait time.Duration) (QueryAnswer, bool, error) {
	if err := events.CheckID(id); err != nil {
		return QueryAnswer{}, false, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	q, ok := a.queries.Get(id)
	if !ok { // submitted a moment ago through another gateway?
		if err := a.fence(ctx, "queries/", 0); err != nil {
			return QueryAnswer{}, false, err
		}
		if q, ok = a.queries.Get(id); !ok {
			return QueryAnswer{}, false, fmt.Errorf("%w: query %s", ErrNotFound, id)
		}
	}
	if !by.Admin && by.ID != q.User {
		return QueryAnswer{}, false, fmt.Errorf("%w: query %s belongs to another user", ErrForbidden, id)
	}
	if !q.Done && wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, wait)
		q, _ = a.queries.Wait(wctx, id)
		cancel()
	}
	return RenderQuery(q), q.Done, nil
}

// RenderQuery is a query as the API and the bus show it.
func RenderQuery(q query.Query) QueryAnswer {
	ans := QueryAnswer{ID: q.ID, Status: "pending", Answer: q.Answer, Steps: []QueryStep{},
		FragmentsRead: nonNil(q.FragmentsRead), FragmentsWritten: nonNil(q.FragmentsWritten), Revision: q.Revision}
	switch {
	case q.Failed():
		ans.Status, ans.Error = "failed", q.FailStage+": "+q.FailReason
	case q.Done:
		ans.Status = "answered"
	}
	for _, s := range q.Steps {
		st := QueryStep{Agent: s.Agent, Subquery: s.Subquery, Response: s.Response, Refused: s.Refused, ResourceCalls: []ResourceCall{}}
		for _, c := range s.ResourceCalls {
			st.ResourceCalls = append(st.ResourceCalls, ResourceCall{Resource: c.Resource, Arguments: c.Arguments, DurationMS: c.DurationMS, Error: c.Error})
		}
		ans.Steps = append(ans.Steps, st)
	}
	return ans
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
