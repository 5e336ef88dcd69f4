package timeexpr

import (
	"testing"
	"time"
)

// How people write in a chat: "this past weekend", "two weekends ago",
// "last Fri". Each resolves against the day said (ref, Friday 9 June
// 2023) and keeps its wording relative to that day; a short weekday alone
// is not read ("I sat down").
func TestResolveSpokenForms(t *testing.T) {
	for _, tc := range []struct {
		expr  string
		start time.Time
		rel   string
	}{
		{"this past weekend", d(2023, 6, 3), "the weekend before 9 June 2023"},
		{"two weekends ago", d(2023, 5, 27), "two weekends before 9 June 2023"},
		{"last Fri", d(2023, 6, 2), "the Friday before 9 June 2023"},
		{"last Tues", d(2023, 6, 6), "the Tuesday before 9 June 2023"},
		{"next Mon", d(2023, 6, 12), "the Monday after 9 June 2023"},
	} {
		s, ok := Resolve(tc.expr, ref)
		if !ok {
			t.Fatalf("%q: not resolved", tc.expr)
		}
		if !s.Start.Equal(tc.start) || s.Relative != tc.rel {
			t.Fatalf("%q: start %s rel %q, want %s and %q", tc.expr, s.Start.Format("2 Jan"), s.Relative, tc.start.Format("2 Jan"), tc.rel)
		}
	}
	if spans := Find("I sat down with my sister", ref); len(spans) != 0 {
		t.Fatalf("a short weekday alone was read: %+v", spans)
	}
}
