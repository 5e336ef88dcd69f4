package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

func TestFactSentencesKeepAnAbbreviationInItsSentence(t *testing.T) {
	got := factSentences("Counseling saved: take the tablets with food; do not restart St. John's wort. Stool test: C. difficile negative. Call back tomorrow.")
	want := []string{"do not restart St. John's wort.", "Stool test: C. difficile negative.", "Call back tomorrow."}
	if len(got) != len(want) {
		t.Fatalf("sentences %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.HasSuffix(strings.TrimSpace(got[i]), w) {
			t.Fatalf("sentence %d is %q, want it to end with %q", i, got[i], w)
		}
	}
}

func TestComposeKeepsTheNameAfterAnAbbreviation(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("lab", 1, "Lab recap: CBC stable, CMP normal, C. difficile negative."),
		composeItem("walk", 2, "The patient walked to the lobby."),
	}
	r, ok := composeAnswer("What is the lab recap?", mem)
	if !ok || !strings.Contains(r.Response, "C. difficile negative") {
		t.Fatalf("answer %q (ok %v) cuts the lab value at its abbreviation", r.Response, ok)
	}
}
