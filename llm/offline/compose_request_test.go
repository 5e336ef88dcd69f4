package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

func TestComposeNeverAnswersWithACommand(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("plan", 1, "Medicine list before the procedure: prednisone 40 mg every morning and avoid ibuprofen."),
		composeItem("ask", 2, "Restate the medicine plan before the procedure."),
	}
	r, ok := composeAnswer("What is the medicine plan before the procedure?", mem)
	if !ok || strings.Contains(r.Response, "Restate") || !strings.Contains(r.Response, "prednisone") {
		t.Fatalf("answer %q (ok %v): a reader's command answered the question it asks", r.Response, ok)
	}
}

func TestAsksForCommands(t *testing.T) {
	for s, want := range map[string]bool{
		"Give me the current short lab summary.":            true,
		"Repeat the current schedule in the shortest form.": true,
		"Confirm the two active appointments.":              true,
		"Confirmed: the visit is Monday at 9:00 AM.":        false,
		"List of current medicines: sertraline 50 mg.":      false,
	} {
		if got := asksFor(s); got != want {
			t.Errorf("asksFor(%q) = %v, want %v", s, got, want)
		}
	}
}
