package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/feed"
)

// LiveFeed is the live feed projection (implemented by *feed.Feed).
type LiveFeed interface {
	Subscribe(after uint64) (backlog []feed.Event, ch <-chan feed.Event, cancel func())
}

// LiveEvents streams the metadata of the events after revision after (as
// far back as the feed keeps them), then of every new one, until ctx ends
// or the caller falls too far behind (the channel closes; resume with the
// last revision seen). An admin gets every event's metadata. A user gets
// only events about itself — its grants, its registration, its queries,
// memory reads and fragments — and of those only ids it may see now: an
// agent it can invoke, a resource such an agent can use. Content is never
// streamed; the console fetches it through the API, whose checks apply.
func (a *App) LiveEvents(ctx context.Context, by domain.Identity, after uint64) (<-chan feed.Event, error) {
	if a.feed == nil {
		return nil, fmt.Errorf("%w: no live feed on this gateway", domain.ErrUnavailable)
	}
	backlog, in, cancel := a.feed.Subscribe(after)
	out := make(chan feed.Event, 64)
	go func() {
		defer close(out)
		defer cancel()
		send := func(e feed.Event) bool {
			e, ok := a.liveFor(by, e)
			if !ok {
				return true
			}
			select {
			case out <- e:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for _, e := range backlog {
			if !send(e) {
				return
			}
		}
		for {
			select {
			case e, ok := <-in:
				if !ok || !send(e) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// liveFor is the disclosure filter of the live stream: what of e, if
// anything, by may see.
func (a *App) liveFor(by domain.Identity, e feed.Event) (feed.Event, bool) {
	if by.Admin {
		return e, true
	}
	u := by.ID
	base := feed.Event{Revision: e.Revision, Type: e.Type, Time: e.Time}
	switch e.Type {
	case events.TypeUserAgentGranted, events.TypeUserAgentRevoked:
		// The user's own edge: AccessOf before and after shows it anyway.
		if e.User != u {
			return feed.Event{}, false
		}
		base.User, base.Agent = e.User, e.Agent
		return base, true
	case events.TypeAgentResourceGranted, events.TypeAgentResourceRevoked:
		// Visible through AccessOf exactly when u could invoke the agent.
		if !a.view.CanInvoke(u, e.Agent, access.AtRevision(e.Revision)) {
			return feed.Event{}, false
		}
		base.Agent, base.Resource = e.Agent, e.Resource
		return base, true
	case events.TypeUserRegistered:
		if e.User != u {
			return feed.Event{}, false
		}
		base.User = e.User
		return base, true
	case events.TypeQuerySubmitted, events.TypeAgentSelected, events.TypeResourceCalled, events.TypeAgentResponded,
		events.TypeQueryAnswered, events.TypeQueryFailed, events.TypeMemoryRead, events.TypeFragmentWritten,
		events.TypeFragmentRejected:
		if e.User != u {
			return feed.Event{}, false
		}
		base.User, base.Query, base.Fragment, base.Tier = e.User, e.Query, e.Fragment, e.Tier
		now := access.Latest()
		if e.Agent != "" && a.view.CanInvoke(u, e.Agent, now) {
			base.Agent = e.Agent
			if e.Resource != "" && a.view.CanUse(e.Agent, e.Resource, now) {
				base.Resource = e.Resource
			}
		}
		return base, true
	}
	// Registrations of agents and resources, policies, types added later:
	// admins only.
	return feed.Event{}, false
}
