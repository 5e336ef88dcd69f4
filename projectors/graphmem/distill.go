package graphmem

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/cmem/cmem/events"
)

// ApproachMemory is the approach of an agent that answered without calling
// a resource.
const ApproachMemory = "memory"

// Distill is the offline summariser (the paper's J): it distils a user's
// queries into insights by rules, one insight per group of queries that
// share a lesson.
//
//   - Success: for every agent that answered in an answered query, the
//     group (agent, "answered", approach), where the approach is the sorted
//     resources the agent called in that query, or "memory" when it called
//     none. "planner answered 3 past queries by calling flights, e.g. …".
//   - Failure: for every agent that answered in a failed query, the group
//     (agent, "failed", "stage:<stage>"); a failed query no agent answered
//     in goes to the group ("", "failed", "stage:<stage>"), an insight for
//     every role.
//
// An insight's supporting queries are its group, oldest first; its text
// names the newest; its provenance is the union of the supporting queries'
// (so it is shown only while every one of them could be). Insights are a
// function of the queries present, sorted by id.
func Distill(user string, queries map[string]*Query) []Insight {
	type key struct{ role, status, approach string }
	groups := map[key][]*Query{}
	for _, q := range queries {
		roles := q.called
		if q.Status == StatusFailed && len(roles) == 0 {
			roles = map[string][]string{"": nil}
		}
		for agent, called := range roles {
			k := key{role: agent, status: q.Status, approach: approach(q, called)}
			groups[k] = append(groups[k], q)
		}
	}
	out := make([]Insight, 0, len(groups))
	for k, qs := range groups {
		slices.SortFunc(qs, func(a, b *Query) int { return a.seq - b.seq })
		ins := Insight{ID: insightID(user, k.role, k.status, k.approach), Role: k.role, Status: k.status, Approach: k.approach}
		labels := make([]events.Label, 0, len(qs))
		for _, q := range qs {
			ins.Supporting = append(ins.Supporting, q.ID)
			labels = append(labels, q.Provenance)
		}
		ins.Provenance = events.Union(labels...)
		ins.Text = insightText(k.role, k.status, k.approach, qs)
		out = append(out, ins)
	}
	slices.SortFunc(out, func(a, b Insight) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// approach is how an agent took part in q: the stage q failed at, or the
// resources the agent called in it.
func approach(q *Query, called []string) string {
	if q.Status == StatusFailed {
		return "stage:" + q.Stage
	}
	if len(called) == 0 {
		return ApproachMemory
	}
	return strings.Join(called, ",")
}

func insightID(user, role, status, approach string) string {
	sum := sha256.Sum256([]byte(user + "\x00" + role + "\x00" + status + "\x00" + approach))
	return "ins_" + hex.EncodeToString(sum[:8])
}

func insightText(role, status, approach string, qs []*Query) string {
	n := len(qs)
	latest := qs[n-1]
	plural := "query"
	if n > 1 {
		plural = "queries"
	}
	who := role
	if who == "" {
		who = "the coordinator"
	}
	eg := fmt.Sprintf("e.g. %q", clip(latest.Text, 120))
	switch {
	case status == StatusFailed:
		return fmt.Sprintf("%d past %s with %s failed at stage %s (%s), %s.", n, plural, who, strings.TrimPrefix(approach, "stage:"),
			clip(latest.Reason, 160), eg)
	case approach == ApproachMemory:
		return fmt.Sprintf("%s answered %d past %s from memory, without calling a resource, %s.", who, n, plural, eg)
	default:
		return fmt.Sprintf("%s answered %d past %s by calling %s, %s.", who, n, plural, strings.ReplaceAll(approach, ",", ", "), eg)
	}
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
