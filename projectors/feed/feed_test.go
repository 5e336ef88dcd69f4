package feed_test

import (
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/feed"
)

func record(t *testing.T, rev uint64, p events.Payload) events.Record {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "admin", Time: time.Unix(int64(rev), 0)}, p)
	if err != nil {
		t.Fatal(err)
	}
	return events.Record{Envelope: e, Revision: rev}
}

// TestSummaryCarriesNoContent: a fragment's and a query's texts never
// enter the feed, only their ids.
func TestSummaryCarriesNoContent(t *testing.T) {
	e := feed.Summarize(record(t, 1, &events.FragmentWritten{ID: "f1", Key: "k-secret", Value: "v-secret", Tier: "private", User: "alice",
		Agents: []string{"planner"}, CreatedAt: time.Unix(1, 0)}))
	if e.Fragment != "f1" || e.User != "alice" || e.Tier != "private" || e.Type != events.TypeFragmentWritten || e.Revision != 1 {
		t.Fatalf("summary %+v", e)
	}
	q := feed.Summarize(record(t, 2, &events.QuerySubmitted{ID: "q1", User: "bob", Text: "secret question", Channel: "http"}))
	if q.Query != "q1" || q.User != "bob" {
		t.Fatalf("summary %+v", q)
	}
}

// TestRingAndSubscribers: a subscriber gets the kept events after its
// revision, then new ones; one that falls behind is dropped (its channel
// closes) instead of holding the log up; the ring keeps the newest.
func TestRingAndSubscribers(t *testing.T) {
	f := feed.New(4)
	for rev := uint64(1); rev <= 6; rev++ {
		if err := f.Apply(record(t, rev, &events.UserRegistered{ID: "u", Role: "user"})); err != nil {
			t.Fatal(err)
		}
	}
	_ = f.Apply(record(t, 6, &events.UserRegistered{ID: "again", Role: "user"})) // a replayed revision is ignored
	backlog, ch, cancel := f.Subscribe(3)
	if len(backlog) != 3 || backlog[0].Revision != 4 || backlog[2].Revision != 6 {
		t.Fatalf("backlog %+v", backlog)
	}
	_ = f.Apply(record(t, 7, &events.UserRegistered{ID: "u7", Role: "user"}))
	if e := <-ch; e.Revision != 7 || e.User != "u7" {
		t.Fatalf("live %+v", e)
	}
	cancel()
	if _, ok := <-ch; ok {
		t.Fatal("channel open after cancel")
	}
	cancel() // twice is fine

	_, slow, stop := f.Subscribe(7)
	defer stop()
	for rev := uint64(8); rev < 8+2000; rev++ {
		_ = f.Apply(record(t, rev, &events.UserRegistered{ID: "u", Role: "user"}))
	}
	n := 0
	for range slow {
		n++
	}
	if n == 0 || n >= 2000 {
		t.Fatalf("slow subscriber got %d events before being dropped", n)
	}
	if f.Revision() != 2007 {
		t.Fatalf("revision %d", f.Revision())
	}
}
