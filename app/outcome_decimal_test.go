package app

import "testing"

// An answer's decimal is no sentence end: grounding keeps "100.4" as it
// was, not "100. 4".
func TestGroundKeepsDecimalsWhole(t *testing.T) {
	note := "Short lab recap right now: creatinine 1.6, urine protein/creatinine 1.9, and C3 low."
	got, _ := ground(note, "What is the short lab recap right now?", []string{note})
	if got != note {
		t.Fatalf("ground = %q, want %q", got, note)
	}
	if n := len(sentenceRE.FindAllString("Fever over 100.4 is a red flag. Call us.", -1)); n != 2 {
		t.Fatalf("%d sentences, want 2", n)
	}
}
