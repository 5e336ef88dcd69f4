package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/subjects"
)

// Query channels.
const (
	ChannelHTTP = "http"
	ChannelNATS = "nats"
)

// MaxQueryBytes bounds a query's text.
const MaxQueryBytes = 65536

// SubmitQuery puts a user's query on the bus; the workers take it from
// there. reply is the NATS subject a bus caller waits on, if any. asOf,
// when not nil, asks for the facts valid at that time (valid time): the
// agents' memory views show what was current then, under the user's
// permissions when each view is read, and the answer is not remembered
// (it is about another time than its own).
func (a *App) SubmitQuery(ctx context.Context, by domain.Identity, text, channel, reply string, asOf *time.Time) (string, uint64, error) {
	if by.ID == AdminID {
		return "", 0, fmt.Errorf("%w: the bootstrap admin is not a user; ask as a registered user", domain.ErrForbidden)
	}
	if _, ok := a.view.User(by.ID); !ok {
		if err := a.requireRegistered(ctx, "users/", by.ID); err != nil {
			return "", 0, err
		}
	}
	if err := subjects.CheckReply(by.ID, reply); err != nil {
		return "", 0, fmt.Errorf("%w: %w", domain.ErrForbidden, err)
	}
	if strings.TrimSpace(text) == "" || len(text) > MaxQueryBytes {
		return "", 0, fmt.Errorf("%w: text must be 1..%d bytes", domain.ErrInvalid, MaxQueryBytes)
	}
	u, err := uuid.NewV7()
	if err != nil {
		return "", 0, err
	}
	id := u.String()
	meta := a.meta(ctx, by)
	meta.CorrelationID = id // every event of the query shares it
	e, err := events.New(meta, &events.QuerySubmitted{ID: id, User: by.ID, Text: text, Channel: channel, ReplySubject: reply, AsOf: asOf})
	if err != nil {
		return "", 0, err
	}
	rev, err := a.log.Append(ctx, e, false)
	if err != nil {
		return "", 0, err
	}
	return id, rev, nil
}
