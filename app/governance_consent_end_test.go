package app

import (
	"testing"
	"time"
)

// The end of a delegation resolves forward from the turn's time: a bare
// weekday is the coming one, "through" includes the day, a time of day
// ends it then.
func TestResolveEnd(t *testing.T) {
	ref := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC) // a Wednesday
	for _, c := range []struct {
		phrase string
		want   time.Time
		ok     bool
	}{
		{"Friday 18:00", time.Date(2026, 3, 6, 18, 0, 0, 0, time.UTC), true},
		{"Friday", time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), true},
		{"Friday, March 13 at 6 pm", time.Date(2026, 3, 13, 18, 0, 0, 0, time.UTC), true},
		{"Wednesday noon", time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC), true},
		{"Tuesday", time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC), true},
		{"6 March 2026", time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), true},
		{"1 January 2020", time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC), true},
		{"further notice", time.Time{}, false},
	} {
		got, ok := resolveEnd(c.phrase, ref)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("%q: %s %v, want %s %v", c.phrase, got, ok, c.want, c.ok)
		}
	}
}
