package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

func TestComposePrefersTheRecordToTheActOfMakingIt(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("recap", 1, "Calendar recap: nurse visit Wed Mar 11 9:00 AM."),
		composeItem("act", 2, "I'm scheduling the nurse follow-up visit on the calendar."),
	}
	r, ok := composeAnswer("What follow-up visit is on the calendar?", mem)
	if !ok || !strings.Contains(r.Response, "Mar 11 9:00 AM") {
		t.Fatalf("answer %q (ok %v): the act of booking answered for the booked visit", r.Response, ok)
	}
}

func TestIntendsOnly(t *testing.T) {
	for s, want := range map[string]bool{
		"I'm scheduling the nurse follow-up":          true,
		"We will move quickly, we still need a plan":  true,
		"I can hold Monday March 9 at 11:00 AM":       false,
		"I'm booked for Monday at 9:00 AM":            false,
		"Calendar recap: nurse visit Wednesday":       false,
		"Current medicine list: prednisone every day": false,
	} {
		if got := intendsOnly(s); got != want {
			t.Errorf("intendsOnly(%q) = %v, want %v", s, got, want)
		}
	}
}
