package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// The operations a batch item may hold; each is the command of the same
// name, with the same rules.
const (
	OpRegisterUser     = "register_user"
	OpRegisterAgent    = "register_agent"
	OpRegisterResource = "register_resource"
	OpGrant            = "grant"
	OpRevoke           = "revoke"
	OpWriteFragment    = "write_fragment"
)

// MaxBatch bounds the items of a batch and the events they make: a batch
// is one JetStream atomic batch, whose size the server limits (1000).
const MaxBatch = 1000

// BatchItem is one command of a batch. Op selects which fields it uses:
// ID and Role (register_user); ID, Description, SystemPrompt
// (register_agent); ID, Kind, Description, Config (register_resource);
// Edge and Term (grant), Edge (revoke); Write (write_fragment).
type BatchItem struct {
	Op           string
	ID           string
	Role         string
	Description  string
	SystemPrompt string
	Kind         string
	Config       map[string]json.RawMessage
	Edge         Edge
	Term         Term
	Write        WriteRequest
}

// BatchResult is what one item did: the revision of its (last) event,
// and what its command answers (a new user's token, written fragments).
type BatchResult struct {
	Op        string            `json:"op"`
	ID        string            `json:"id,omitempty"`
	Token     string            `json:"token,omitempty"`
	Fragments []domain.Fragment `json:"fragments,omitempty"`
	Revision  uint64            `json:"revision"`
}

// BatchAnswer is every item's result, in order, and the revision of the
// batch's last event.
type BatchAnswer struct {
	Items    []BatchResult `json:"items"`
	Revision uint64        `json:"revision"`
}

// ItemError says which item refused a batch (nothing of it was stored).
type ItemError struct {
	Index int
	Err   error
}

func (e *ItemError) Error() string { return fmt.Sprintf("item %d: %v", e.Index, e.Err) }

// Unwrap gives the item's error, whose kind decides the status.
func (e *ItemError) Unwrap() error { return e.Err }

// Batch runs many commands as one: every item is checked as its own
// command would be (the caller's rights, the ids, write policies and
// admission for fragments) against the graphs as they stand before the
// batch, and a later item sees the entities an earlier one registers.
// If any item is refused, nothing is stored and the error names the item
// (*ItemError). Otherwise all their events are appended as one atomic
// batch: one round trip to the stream leader, consecutive revisions.
func (a *App) Batch(ctx context.Context, by domain.Identity, items []BatchItem) (BatchAnswer, error) {
	switch {
	case len(items) == 0:
		return BatchAnswer{}, fmt.Errorf("%w: a batch needs at least one item", domain.ErrInvalid)
	case len(items) > MaxBatch:
		return BatchAnswer{}, fmt.Errorf("%w: %d items in a batch, the limit is %d", domain.ErrInvalid, len(items), MaxBatch)
	}
	st := &stager{log: a.log, subjects: map[string]bool{}, heads: map[string]uint64{}}
	staged := *a
	staged.log = st
	ans := BatchAnswer{Items: make([]BatchResult, len(items))}
	spans := make([][2]int, len(items))
	for i, it := range items {
		lo := len(st.entries)
		res, err := staged.batchItem(ctx, by, it)
		if err != nil {
			return BatchAnswer{}, &ItemError{Index: i, Err: err}
		}
		spans[i] = [2]int{lo, len(st.entries)}
		ans.Items[i] = res
	}
	if len(st.entries) > MaxBatch {
		return BatchAnswer{}, fmt.Errorf("%w: the batch makes %d events, the limit is %d", domain.ErrInvalid, len(st.entries), MaxBatch)
	}
	revs, err := a.log.AppendAll(ctx, st.entries)
	if err != nil {
		return BatchAnswer{}, fmt.Errorf("batch of %d events: %w", len(st.entries), err)
	}
	for i, sp := range spans {
		if sp[1] > sp[0] {
			ans.Items[i].Revision = revs[sp[1]-1]
		}
		for j := range ans.Items[i].Fragments {
			ans.Items[i].Fragments[j].Revision = revs[sp[0]+j]
		}
	}
	ans.Revision = revs[len(revs)-1]
	return ans, nil
}

// batchItem runs one item's command on a staging log.
func (a *App) batchItem(ctx context.Context, by domain.Identity, it BatchItem) (BatchResult, error) {
	res := BatchResult{Op: it.Op, ID: it.ID}
	var err error
	switch it.Op {
	case OpRegisterUser:
		if err = a.notRegistered("users/", it.ID); err == nil {
			res.Token, _, err = a.RegisterUser(ctx, by, it.ID, it.Role)
		}
	case OpRegisterAgent:
		if err = a.notRegistered("agents/", it.ID); err == nil {
			_, err = a.RegisterAgent(ctx, by, it.ID, it.Description, it.SystemPrompt)
		}
	case OpRegisterResource:
		if err = a.notRegistered("resources/", it.ID); err == nil {
			_, err = a.RegisterResource(ctx, by, it.ID, it.Kind, it.Description, it.Config)
		}
	case OpGrant:
		_, err = a.Grant(ctx, by, it.Edge, it.Term)
	case OpRevoke:
		_, err = a.SetGrant(ctx, by, it.Edge, false)
	case OpWriteFragment:
		var w WriteAnswer
		if w, err = a.WriteFragment(ctx, by, it.Write); err == nil {
			res.Fragments = w.Fragments
		}
	default:
		err = fmt.Errorf("%w: op must be one of %s, %s, %s, %s, %s, %s; got %q", domain.ErrInvalid,
			OpRegisterUser, OpRegisterAgent, OpRegisterResource, OpGrant, OpRevoke, OpWriteFragment, it.Op)
	}
	return res, err
}

// notRegistered refuses, before the batch is sent, a registration of an
// id the access projection already holds; one registered since through
// another gateway still fails the batch at the leader.
func (a *App) notRegistered(kind, id string) error {
	if a.projected(kind, id) {
		return fmt.Errorf("%w: %s%s is already registered", domain.ErrConflict, kind, id)
	}
	return nil
}

// Staged is one event of an atomic append.
type Staged struct {
	Event events.Envelope
	// Exclusive: the append fails (domain.ErrConflict) if the event's subject
	// already holds an event.
	Exclusive bool
}

// stager is the EventLog a batch's commands run on: it keeps their events
// instead of storing them, and answers heads of the subjects they take.
type stager struct {
	log      EventLog
	entries  []Staged
	subjects map[string]bool
	heads    map[string]uint64
}

func (s *stager) Append(_ context.Context, e events.Envelope, exclusive bool) (uint64, error) {
	if exclusive && s.subjects[e.Subject] {
		return 0, fmt.Errorf("%w: %s is registered by an earlier item", domain.ErrConflict, e.Subject)
	}
	s.entries = append(s.entries, Staged{Event: e, Exclusive: exclusive})
	s.subjects[e.Subject] = true
	// Revisions are known once the batch is stored; Batch fills them in.
	return 0, nil
}

// Head of a subject an earlier item writes is 1, so the entity it
// registers exists for later items (and nothing waits on it); every other
// head is the log's, asked once a batch: every item is judged against the
// log as it stood when the batch began.
func (s *stager) Head(ctx context.Context, filter string) (uint64, error) {
	if s.subjects[filter] {
		return 1, nil
	}
	if head, ok := s.heads[filter]; ok {
		return head, nil
	}
	head, err := s.log.Head(ctx, filter)
	if err != nil {
		return 0, err
	}
	s.heads[filter] = head
	return head, nil
}

func (s *stager) AppendAll(context.Context, []Staged) ([]uint64, error) {
	return nil, fmt.Errorf("%w: a batch inside a batch", domain.ErrInvalid)
}
