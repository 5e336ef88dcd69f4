package offline

import (
	"reflect"
	"testing"
	"time"
)

// "On Friday, I got the news" names no one: "I" never continues a name,
// and a day or month is no answer to who or where.
func TestDayIsNoPlace(t *testing.T) {
	if got := namesOf("On Friday I heard back from Priya."); !reflect.DeepEqual(got, []string{"friday", "i", "priya"}) {
		t.Fatalf("namesOf = %q, want friday and priya apart", got)
	}
	at := time.Date(2024, 1, 7, 17, 0, 0, 0, time.UTC)
	got := span("Where is Omar going for his exchange year?", "Omar: On Friday, I got my exchange year approved! Next month I'm off to Portugal.", at)
	if got != "Portugal" {
		t.Fatalf("span = %q, want Portugal", got)
	}
	if got := newName("Who did Omar meet?", "Omar: On Monday I met Lena."); got != "Lena" {
		t.Fatalf("newName = %q, want Lena, not the day", got)
	}
}
