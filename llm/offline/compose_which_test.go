package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestComposeStateAsksForTheThing fails when "dependency state" is
// answered by a clause that only shares the word "state" ("Late-state
// digest") instead of the one stating the dependency.
func TestComposeStateAsksForTheThing(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("dep", 1, "Heron audit check: no open dependency remains, and the audit date is October 2, 2027."),
		composeItem("digest", 2, "Late-state digest: the Heron audit date is October 2, 2027."),
	}
	r, ok := composeAnswer("What are the Heron audit's current date and dependency state?", mem)
	if !ok || !strings.Contains(r.Response, "no open dependency") {
		t.Fatalf("answer %q (ok %v), want the dependency's state", r.Response, ok)
	}
}

// TestComposeANameSaysWhichNotWhat fails when a part asking for "the
// dependency for Kestrel Survey" is answered by a clause that holds only
// the record's name.
func TestComposeANameSaysWhichNotWhat(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("dep", 1, "Logistics note: the field kit is Kit 14, while the open dependency stays the ethics board memo."),
		composeItem("amount", 2, "Grant update: the current grant amount is now 2,400 EUR for Kestrel Survey."),
	}
	r, ok := composeAnswer("What are my current field kit, current grant amount, and dependency for Kestrel Survey?", mem)
	if !ok || !strings.Contains(r.Response, "ethics board memo") {
		t.Fatalf("answer %q (ok %v), want the dependency", r.Response, ok)
	}
}

// TestComposeAnAmountIsNoDate fails when a clause holding a date ("runs
// through March 20, 2027 and excludes the exact amount") is weighed as a
// statement of the amount asked, pushing out the clause that gives it.
func TestComposeAnAmountIsNoDate(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("amount", 1, "Finance note: current amount 3,390 USD for Lark."),
		composeItem("release", 2, "The Lark family release runs through March 20, 2027 and still excludes the exact amount."),
	}
	r, ok := composeAnswer("What are Lark's current date and current support amount?", mem)
	if !ok || !strings.Contains(r.Response, "3,390 USD") {
		t.Fatalf("answer %q (ok %v), want the amount", r.Response, ok)
	}
}
