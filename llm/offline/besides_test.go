package offline

import (
	"strings"
	"testing"
)

// Asked for something "besides X", the clause that says X is not the
// answer; the clause that names the other thing is.
func TestBesidesRulesOutItsClause(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	al := p.cfg.Embedder.(aligner)
	q := "What is one of Ines's favourite snacks besides salted almonds?"
	got := p.clause(al, nil, q, "Ines: Salted almonds from the little market near my flat are one of my favourite snacks, but I also adore plantain chips.")
	if strings.Contains(strings.ToLower(got), "almond") || !strings.Contains(got, "plantain") {
		t.Fatalf("clause = %q, want the plantain chips, not the almonds the question rules out", got)
	}
	if excluded("What else does Ines like?") != nil {
		t.Fatal("a question without an exclusion excludes something")
	}
}
