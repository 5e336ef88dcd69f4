package offline

import (
	"strings"
	"testing"
)

// TestQuoteShiftStartsAtAnItem fails when a window shifted to hold a
// quotation whole starts inside a listed item, keeping "blockers remain"
// of "no major blockers remain" — the value's meaning turned over.
func TestQuoteShiftStartsAtAnItem(t *testing.T) {
	text := `no major blockers remain, approved budget is 214,000 USD, approved max discount is 6%, and safe wording remains "the manufacturing quality pilot"`
	q := map[string]bool{"safe": true, "wording": true, "budget": true}
	got := cutTo(text, 20, q, q)
	if strings.Contains(got, "blockers") && !strings.Contains(got, "no major blockers") {
		t.Fatalf("cut %q starts inside a listed item", got)
	}
	if !strings.Contains(got, `"the manufacturing quality pilot"`) || len(strings.Fields(got)) > 20 {
		t.Fatalf("cut %q lost the quotation or its budget", got)
	}
}

func TestItemStarts(t *testing.T) {
	got := itemStarts(strings.Fields("launch November 3, 2026, budget 214,000 USD, and no blockers"))
	want := []bool{true, false, false, false, true, false, false, true, false, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("itemStarts = %v, want %v", got, want)
		}
	}
}
