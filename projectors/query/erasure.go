package query

import (
	"slices"

	"github.com/cmem/cmem/events"
)

// applyErasure drops the content of the queries an erasure event lists,
// and on a user's erasure every query of that user: their texts read
// events.Erased and they leave the conversation history. Ids, agents and
// fragment ids stay (the audit's facts). Called with qs.mu held.
func (qs *Projection) applyErasure(r events.Record) error {
	p, err := r.Decode()
	if err != nil {
		return err
	}
	var ids []string
	switch p := p.(type) {
	case *events.UserErased:
		ids = p.Queries
		for id, q := range qs.byID {
			if q.User == p.User {
				ids = append(ids, id)
			}
		}
	case *events.FragmentDeleted:
		ids = p.Queries
	}
	for _, id := range ids {
		q := qs.byID[id]
		if q == nil || q.Erased {
			continue
		}
		q.erase()
		qs.byUser[q.User] = slices.DeleteFunc(qs.byUser[q.User], func(x string) bool { return x == id })
	}
	return nil
}

func (q *Query) erase() {
	q.Erased, q.Text = true, events.Erased
	if q.Answer != "" {
		q.Answer = events.Erased
	}
	if q.FailReason != "" {
		q.FailReason = events.Erased
	}
	steps := make([]Step, len(q.Steps))
	for i, st := range q.Steps {
		st.Subquery, st.Response = events.Erased, events.Erased
		calls := make([]events.ResourceCalled, len(st.ResourceCalls))
		for j, c := range st.ResourceCalls {
			c.Arguments, c.Error = map[string]any{}, ""
			calls[j] = c
		}
		st.ResourceCalls = calls
		steps[i] = st
	}
	q.Steps = steps
}

// OfUser returns the ids of every query of user, in no order.
func (qs *Projection) OfUser(user string) []string {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	var out []string
	for id, q := range qs.byID {
		if q.User == user {
			out = append(out, id)
		}
	}
	return out
}

// ThatRead returns the queries (any user's) whose answer or steps read one
// of the fragments ids, or carry one in their labels, sorted by id.
func (qs *Projection) ThatRead(ids []string) []Query {
	qs.mu.RLock()
	defer qs.mu.RUnlock()
	in := make(map[string]bool, len(ids))
	for _, id := range ids {
		in[id] = true
	}
	read := func(xs []string) bool { return slices.ContainsFunc(xs, func(x string) bool { return in[x] }) }
	var out []Query
	for _, q := range qs.byID {
		hit := read(q.FragmentsRead) || read(q.Label.Fragments)
		for _, st := range q.Steps {
			hit = hit || read(st.Read) || read(st.Label.Fragments) || read(st.SubqueryLabel.Fragments)
		}
		if hit {
			out = append(out, Query{ID: q.ID, User: q.User})
		}
	}
	slices.SortFunc(out, func(a, b Query) int {
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}
