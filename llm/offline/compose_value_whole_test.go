package offline

import "testing"

// A cut never ends between an amount and its currency, nor between a day
// and its year.
func TestCutKeepsValueWhole(t *testing.T) {
	part := map[string]bool{"amount": true}
	for _, c := range []struct{ text, want string }{
		{"Please keep my current private suite Annex Suite 731, current amount 3,690 USD, and blocker memo", "Suite 731, current amount 3,690 USD"},
		{"Date update for the review: the move-review date is now May 19, 2026 instead of May 18", "date is now May 19, 2026"},
	} {
		got := cutTo(c.text, 6, part, map[string]bool{"amount": true, "date": true})
		if got != c.want {
			t.Errorf("cutTo(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
