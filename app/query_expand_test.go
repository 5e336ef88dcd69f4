package app

import "testing"

// A scope reader's question is searched with the words notes use for its
// words, and only those.
func TestExpandedQuery(t *testing.T) {
	if got := expandedQuery("What is the current Kiln diagnosis?"); got != "What is the current Kiln diagnosis? suspicion root cause hypothesis" {
		t.Errorf("expandedQuery = %q", got)
	}
	if got := expandedQuery("What is the Kiln target date?"); got != "What is the Kiln target date?" {
		t.Errorf("a question with no such word changed: %q", got)
	}
}
