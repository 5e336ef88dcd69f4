package llm

import "testing"

func TestTruncateWords(t *testing.T) {
	if got := TruncateWords("short", 10); got != "short" {
		t.Fatalf("got %q", got)
	}
	if got := TruncateWords("alpha beta gamma delta", 13); got != "alpha beta" {
		t.Fatalf("got %q, want cut at a word", got)
	}
	if got := TruncateWords("ääääääääää", 4); got != "ääää" {
		t.Fatalf("got %q, want 4 runes", got)
	}
}
