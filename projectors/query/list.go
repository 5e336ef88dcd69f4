package query

import "sort"

// List returns the queries of user ("" = every user), newest first by
// submission time, at most n. It is for listings; each item is a copy.
func (qs *Projection) List(user string, n int) []Query {
	qs.mu.RLock()
	out := make([]Query, 0, min(n, len(qs.byID)))
	for _, q := range qs.byID {
		if user == "" || q.User == user {
			out = append(out, q.clone())
		}
	}
	qs.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].SubmittedAt.Equal(out[j].SubmittedAt) {
			return out[i].SubmittedAt.After(out[j].SubmittedAt)
		}
		return out[i].ID > out[j].ID
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
