package app

import (
	"context"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// ChangeLister lists grant and revoke events between two revisions
// (implemented by *access.Graph). It is asked for by type assertion on the
// access view, so views without a history answer domain.ErrUnavailable.
type ChangeLister interface {
	Changes(after, upTo uint64) []access.Change
}

// MaxChanges bounds one answer of AccessChanges.
const MaxChanges = 5000

// ChangesQuery selects grant and revoke events: by revision (After
// exclusive, UpTo inclusive; 0 = the head) and by time (From inclusive, To
// exclusive), about User if set, at most Limit (default and cap
// MaxChanges), the oldest first.
type ChangesQuery struct {
	After, UpTo uint64
	From, To    *time.Time
	User        string
	Limit       int
	MinRevision uint64
}

// ChangesAnswer lists the changes; Revision is the state they were read
// from and Truncated says that Limit cut the list.
type ChangesAnswer struct {
	Revision  uint64          `json:"revision"`
	Changes   []access.Change `json:"changes"`
	Truncated bool            `json:"truncated"`
}

// AccessChanges is the grant history: what changed in the access graphs
// between two points. An admin sees every change; a user sees only the
// changes it could observe through AccessOf at those points: its own
// user-agent edges, and the agent-resource edges of agents it could invoke
// when the change happened.
func (a *App) AccessChanges(ctx context.Context, by domain.Identity, q ChangesQuery) (ChangesAnswer, error) {
	if q.User != "" && !by.Admin && q.User != by.ID {
		return ChangesAnswer{}, fmt.Errorf("%w: %s may read only its own grant history", domain.ErrForbidden, by.ID)
	}
	if q.User != "" {
		if err := events.CheckID(q.User); err != nil {
			return ChangesAnswer{}, fmt.Errorf("%w: user: %w", domain.ErrInvalid, err)
		}
	}
	if q.Limit < 0 || q.Limit > MaxChanges {
		return ChangesAnswer{}, fmt.Errorf("%w: limit must be within 0..%d", domain.ErrInvalid, MaxChanges)
	}
	if q.Limit == 0 {
		q.Limit = MaxChanges
	}
	if q.UpTo != 0 && q.UpTo < q.After {
		return ChangesAnswer{}, fmt.Errorf("%w: to_revision %d is before from_revision %d", domain.ErrInvalid, q.UpTo, q.After)
	}
	lister, ok := a.view.(ChangeLister)
	if !ok {
		return ChangesAnswer{}, fmt.Errorf("%w: this access view keeps no grant history", domain.ErrUnavailable)
	}
	if err := a.fence(ctx, events.GrantsSubjectPrefix, q.MinRevision); err != nil {
		return ChangesAnswer{}, err
	}
	rev := a.view.Revision()
	upTo := rev
	if q.UpTo != 0 {
		upTo = min(q.UpTo, rev)
	}
	user := q.User
	if !by.Admin {
		user = by.ID
	}
	ans := ChangesAnswer{Revision: rev, Changes: []access.Change{}}
	for _, c := range lister.Changes(q.After, upTo) {
		if q.From != nil && c.At.Before(*q.From) || q.To != nil && !c.At.Before(*q.To) {
			continue
		}
		if user != "" && !a.changeConcerns(c, user) {
			continue
		}
		if len(ans.Changes) == q.Limit {
			ans.Truncated = true
			break
		}
		ans.Changes = append(ans.Changes, c)
	}
	return ans, nil
}

// changeConcerns reports whether user could have seen c through AccessOf:
// an edge of its own, or a resource edge of an agent it could invoke at
// the change (an agent-resource change does not move user-agent edges, so
// the state before and after agree on that).
func (a *App) changeConcerns(c access.Change, user string) bool {
	if c.Graph == access.GraphUserAgent {
		return c.From == user
	}
	return a.view.CanInvoke(user, c.From, access.AtRevision(c.Revision))
}
