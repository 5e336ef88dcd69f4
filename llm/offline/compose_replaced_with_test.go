package offline

import (
	"strings"
	"testing"
)

// TestReplacedWithNamesTheNewValueCurrent fails when the value a change
// names as coming instead ("replaces 231,000 USD with 236,000 USD") is
// taken for a past one: only what it replaces is past, and the clause
// states the current value.
func TestReplacedWithNamesTheNewValueCurrent(t *testing.T) {
	cls := clausesOf([]itemAt{{id: "n", value: "The amendment replaces 231,000 USD with 236,000 USD."}})
	past := staleValues(cls)
	if !past["231,000"] || past["236,000"] {
		t.Fatalf("past values %v, want 231,000 and not 236,000", past)
	}
	for _, c := range cls {
		if strings.Contains(c.text, "236,000") && c.stale {
			t.Fatalf("clause %q marked stale", c.text)
		}
	}
	// Without a new value named, the change still makes its value past.
	if pastAt("That replaces the 95,000 EUR placeholder") < 0 {
		t.Fatal("a replaced value without a successor is not past")
	}
	if at, _ := pastSpan("Renewal terms: replaces auto-renewal with a fixed 12-month term"); at >= 0 {
		t.Fatal("a change whose past part holds no value names one as past")
	}
}
