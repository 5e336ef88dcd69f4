package query_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/query"
)

func record(t *testing.T, rev uint64, p events.Payload) events.Record {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "u", Time: time.Unix(int64(rev), 0)}, p)
	if err != nil {
		t.Fatal(err)
	}
	return events.Record{Envelope: e, Revision: rev}
}

// lifecycle is query id's events: submitted, and answered when done.
func lifecycle(t *testing.T, rev uint64, id string, done bool) []events.Record {
	recs := []events.Record{record(t, rev, &events.QuerySubmitted{ID: id, User: "u", Text: "q " + id, Channel: "http"})}
	if done {
		recs = append(recs, record(t, rev+1, &events.QueryAnswered{QueryID: id, User: "u", Answer: "answer " + id,
			Agents: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}}))
	}
	return recs
}

// A bounded projection keeps every unfinished query and only the newest
// finished ones; an evicted query is rebuilt from its events exactly as it
// was.
func TestBoundedProjectionEvictsOnlyFinishedQueries(t *testing.T) {
	p := query.NewBoundedProjection(3)
	var all [][]events.Record
	rev := uint64(1)
	for i := range 10 {
		recs := lifecycle(t, rev, fmt.Sprintf("q%d", i), i%4 != 0) // q0, q4, q8 stay unfinished
		all = append(all, recs)
		for _, r := range recs {
			if err := p.Apply(r); err != nil {
				t.Fatal(err)
			}
		}
		rev += 2
	}
	for _, id := range []string{"q0", "q4", "q8", "q6", "q7", "q9"} {
		if _, ok := p.Get(id); !ok {
			t.Errorf("%s left memory; want every unfinished and the 3 newest finished queries kept", id)
		}
	}
	for _, id := range []string{"q1", "q2", "q3", "q5"} {
		if _, ok := p.Get(id); ok {
			t.Errorf("%s still in memory beyond the retention", id)
		}
	}
	if p.Len() != 6 {
		t.Errorf("%d queries in memory, want 6", p.Len())
	}
	if h := p.History("u", 10); len(h) != 3 {
		t.Errorf("history shows %d answered queries, want the 3 retained", len(h))
	}
	q, ok := query.Rebuild("q2", all[2])
	if !ok || !q.Done || q.Answer != "answer q2" || q.User != "u" {
		t.Errorf("rebuilt q2 = %+v, %v", q, ok)
	}
	if _, ok := query.Rebuild("q2", all[3]); ok {
		t.Error("rebuilt q2 from another query's events")
	}
}
