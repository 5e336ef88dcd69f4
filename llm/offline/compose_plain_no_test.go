package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposeSaysAnAbsentHoldPlainly fails when the composed answer
// keeps "does not have a borrowing hold" or "the parking restriction was
// lifted" instead of the plain "no borrowing hold", "no parking
// restriction".
func TestComposeSaysAnAbsentHoldPlainly(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("hold", 1, "Library check: Omar does not have a borrowing hold on his account."),
		composeItem("parking", 2, "Facilities update: Omar's parking restriction was lifted this morning."),
	}
	r, ok := composeAnswer("Is there a borrowing hold on Omar's account, and what is his parking restriction?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	for _, want := range []string{"has no borrowing hold", "no parking restriction"} {
		if !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q lacks %q", r.Response, want)
		}
	}
}

func TestPlainNo(t *testing.T) {
	for in, want := range map[string]string{
		"Omar does not have a borrowing hold":      "Omar has no borrowing hold",
		"they don't have any open flags":           "they have no open flags",
		"there is not a visa restriction":          "there is no visa restriction",
		"there aren't any holds":                   "there are no holds",
		"his library fine hold is now cleared":     "no library fine hold",
		"library hold cleared":                     "no library hold",
		"the export block has been lifted":         "no export block",
		"the payment cleared on Friday":            "the payment cleared on Friday", // a payment is no obstacle
		"the report was released to the committee": "the report was released to the committee",
		"the hold on room 5 stays in place":        "the hold on room 5 stays in place",
	} {
		if got := plainNo(in); got != want {
			t.Errorf("plainNo(%q) = %q, want %q", in, got, want)
		}
	}
}
