package app

import (
	"context"

	"github.com/cmem/cmem/domain"
)

// Delivery is a finished query rendered for its user, for the bus.
type Delivery struct {
	User   string
	Reply  string
	Answer QueryAnswer
}

// Delivery renders the query that the event at rev finished for delivery
// on the bus, on a fresh permission snapshot, and records it. ok is false
// when there is nothing to deliver (an unknown or unfinished query).
func (p *Pipeline) Delivery(ctx context.Context, queryID string, rev uint64) (Delivery, bool, error) {
	q, ok, err := p.load(ctx, queryID, rev)
	if err != nil || !ok || !q.Done {
		return Delivery{}, false, err
	}
	ans, err := p.app.deliver(ctx, domain.Identity{ID: q.User}, q, ChannelNATS)
	if err != nil {
		return Delivery{}, false, err
	}
	return Delivery{User: q.User, Reply: q.Reply, Answer: ans}, true, nil
}
