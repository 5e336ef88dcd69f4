package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposeSkipsWhereAValueDoesNotBelong fails when a rule about where
// a value may not go ("the exact wording does not belong in the title
// field") answers for the value: it is how to treat notes (hedgeRE), and
// the older note stating the safe wording is the answer.
func TestComposeSkipsWhereAValueDoesNotBelong(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("safe", 1, "The exact internal Wren Panel wording now sitting in restricted notes is 'hold for audit'. Outside the core case chain, the safe wording should stay 'campus logistics review' and nothing more specific."),
		composeItem("date", 2, "Recording the initial Wren Panel date as June 3, 2026, pending the reader signature and the final packet routing check."),
		composeItem("rule", 3, "Registrar systems should use the student-safe title 'campus logistics review' for Ada's file. The exact internal panel wording does not belong in the registrar-visible title field."),
	}
	r, ok := composeAnswer("As of now, what are Wren Panel's current date, current RA-support amount, safe case wording, and current blocker?", mem)
	if !ok || !strings.Contains(r.Response, "campus logistics review") {
		t.Fatalf("answer %q (ok %v), want the safe wording 'campus logistics review'", r.Response, ok)
	}
}
