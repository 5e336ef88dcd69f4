package semantic_test

import (
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/embedtest"
	"github.com/cmem/cmem/embedding/semantic"
)

func TestSemanticContract(t *testing.T) {
	embedtest.Run(t, semantic.Must())
}

func cos(e *semantic.Embedder, a, b string) float32 {
	return embedding.Cosine(e.Vector(a), e.Vector(b))
}

// The pairs: synonyms score well above unrelated text, and a
// negation makes a sentence related but not the same.
func TestSemanticUnderstandsWording(t *testing.T) {
	e := semantic.Must()
	syn := cos(e, "favourite cuisine", "preferred food")
	for _, unrelated := range []string{"stock market crash", "offshore wind turbines", "the court adjourned"} {
		if u := cos(e, "favourite cuisine", unrelated); syn < u+0.3 {
			t.Errorf("favourite cuisine ~ preferred food %.3f, ~ %q %.3f: synonyms not well above unrelated", syn, unrelated, u)
		}
	}
	neg := cos(e, "alice is vegetarian", "alice is not vegetarian")
	if neg > 0.95 || neg < 0.5 {
		t.Errorf("alice is (not) vegetarian: %.3f, want related (≥0.5) but not the same (≤0.95)", neg)
	}
	if a := e.Align("alice is vegetarian", "alice isn't vegetarian"); a > 0.9 {
		t.Errorf("Align across a negation %.3f, want ≤ 0.9", a)
	}
}

// Names are subjects: two cities are two subjects (decisively for Align;
// sentence vectors only keep them apart, since the other words are the
// same), and a name outside the vocabulary still matches itself.
func TestSemanticNames(t *testing.T) {
	e := semantic.Must()
	q, para, other := "What food is Lyon famous for?", "Which dish is Lyon known for?", "What food is Marseille famous for?"
	if a, b := e.Align(q, para), e.Align(q, other); a < 2*b {
		t.Errorf("Align: paraphrase about Lyon %.3f, same words about Marseille %.3f", a, b)
	}
	if c := cos(e, q, other); c > 0.8 {
		t.Errorf("cosine of the same question about two cities %.3f", c)
	}
	if s := cos(e, "Zorblax quarterly report", "report of Zorblax"); s < 0.6 {
		t.Errorf("an unknown name does not match itself: %.3f", s)
	}
}

// Align tells the attribute asked for: the sentence answering the question
// aligns better than another fact about the same subject, and a question
// about another subject does not cover this one.
func TestSemanticAlign(t *testing.T) {
	e := semantic.Must()
	tests := []struct{ q, right, wrong string }{
		{"Which dish is Utrecht known for?", "Utrecht is famous for a dish called risotto.", "The favourite drink in Utrecht is porter."},
		{"When was Graz founded?", "Graz was founded in the year 1187.", "Graz was founded by Casimir."},
		{"Who founded Graz?", "Graz was founded by Casimir.", "Graz was founded in the year 1187."},
		{"How many people live in Lyon?", "What is the population of Lyon?", "What food is Lyon famous for?"},
		{"How many seats does the council of Ghent have?", "How large is the council of Ghent?", "How many seats does the council of Utrecht have?"},
	}
	for _, tc := range tests {
		r, w := e.Align(tc.q, tc.right), e.Align(tc.q, tc.wrong)
		if r <= w {
			t.Errorf("%q: right %q %.3f <= wrong %q %.3f", tc.q, tc.right, r, tc.wrong, w)
		}
	}
	if a := e.Align("", "anything"); a != 0 {
		t.Errorf("empty query aligns %v", a)
	}
}

// BenchmarkSemanticEmbed reports texts/s (embedtest.Bench), the same texts
// as BenchmarkHashingEmbed.
func BenchmarkSemanticEmbed(b *testing.B) { embedtest.Bench(b, semantic.Must()) }

// TestOpenersAreNotNames: "Tell me …" asks what "What is …" asks; the
// capital of an imperative opening a sentence does not make it a name
// the answer must hold.
func TestOpenersAreNotNames(t *testing.T) {
	e := semantic.Must()
	const text = "Lyon has a population of 513000 inhabitants."
	plain := e.Align("what is the population of Lyon?", text)
	for _, q := range []string{"Tell me the population of Lyon.", "Please give the population of Lyon.", "Show the population of Lyon."} {
		if got := e.Align(q, text); got < plain-0.05 {
			t.Errorf("Align(%q) = %.2f, far below %.2f for the same question asked plainly", q, got, plain)
		}
	}
	// A name opening a sentence is still a name.
	if e.Align("Graz population", text) >= e.Align("Lyon population", text) {
		t.Error("a sentence-initial name stopped counting as a name")
	}
}
