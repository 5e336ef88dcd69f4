package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// An older recap holding every asked word loses to the newer move that
// left its values behind.
func TestComposePrefersTheValueAMoveLeadsTo(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("recap", 1, "Current Orion state at this point: target date July 10, budget 236,000 USD, maximum discount 10%."),
		composeItem("other", 2, "Orion vendor onboarding is complete."),
		composeItem("move", 3, "Schedule note: Orion target now moves from July 10 to July 31, 2026."),
		composeItem("money", 4, "Finance: the Orion budget is revised from 236,000 USD to 222,000 USD."),
		composeItem("filler", 5, "Orion standup moved to the small room."),
	}
	r, ok := composeAnswer("What are the current Orion target date and budget?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	for _, want := range []string{"July 31", "222,000 USD"} {
		if !strings.Contains(r.Response, want) {
			t.Errorf("answer %q lacks the current %s", r.Response, want)
		}
	}
	if strings.Contains(r.Response, "236,000 USD, maximum") || strings.Contains(r.Response, "date July 10") {
		t.Errorf("answer %q gives the recap's past values", r.Response)
	}
}

func TestMovedFrom(t *testing.T) {
	cases := map[string]string{
		"Lighthouse target now moves from July 22 to July 31, 2026": "july 22",
		"the budget is revised from 236,000 USD to 222,000 USD":     "236,000",
		"the discount was reduced from 10% to 8%":                   "10%",
		"the clinic is open from 9:00 to 17:00":                     "",
	}
	for text, want := range cases {
		got := strings.Join(movedFrom(text), "|")
		if got != want {
			t.Errorf("movedFrom(%q) = %q, want %q", text, got, want)
		}
	}
	if statesValue("target July 2, 2026", "july 22") || !statesValue("target July 22, 2026", "july 22") {
		t.Error("statesValue confuses July 2 with July 22")
	}
}
