package offline

import (
	"testing"
	"time"
)

// A weekday said with "on" in a sentence that tells, not plans, is the
// one before the day it was said; one that looks ahead is not read back.
func TestOnWeekdayToldAfterIt(t *testing.T) {
	at := time.Date(2024, 3, 11, 9, 0, 0, 0, time.UTC) // a Monday
	if got := span("When did Odile win the chess final?", "Odile: I won the chess final on Saturday!", at); got != "the Saturday before 11 March 2024" {
		t.Fatalf("got %q, want the Saturday before 11 March 2024", got)
	}
	if !saysWhen("Odile: I won the chess final on Saturday!", at) {
		t.Fatal("a told weekday does not say when")
	}
	if got := span("When is Odile playing the chess final?", "Odile: I'll play the chess final on Saturday.", at); got == "the Saturday before 11 March 2024" {
		t.Fatalf("a planned weekday was read back in time: %q", got)
	}
}
