package offline

import (
	"testing"
	"time"
)

// A question naming when ("in December 2023") selects the turns said
// then: one from months before scores lower, one from then is left as it
// is, and a question naming no time changes nothing.
func TestByAskedTime(t *testing.T) {
	aug := time.Date(2023, 8, 21, 16, 0, 0, 0, time.UTC)
	dec := time.Date(2023, 12, 6, 17, 0, 0, 0, time.UTC)
	ranked := func() []rankedSentence {
		return []rankedSentence{
			{text: "Tim: I've also started learning the piano.", at: aug, score: 0.8},
			{text: "Tim: I'm learning how to play the violin now.", at: dec, score: 0.6},
		}
	}
	r := ranked()
	byAskedTime("What instrument is Tim learning to play in December 2023?", r)
	if r[0].score >= 0.8 || r[1].score != 0.6 {
		t.Fatalf("scores = %v, %v; want the August turn lowered, the December one kept", r[0].score, r[1].score)
	}
	if r[0].score >= r[1].score {
		t.Fatalf("the August turn (%v) still outranks December's (%v)", r[0].score, r[1].score)
	}
	r = ranked()
	byAskedTime("What instrument is Tim learning to play?", r)
	if r[0].score != 0.8 || r[1].score != 0.6 {
		t.Fatalf("a question naming no time changed the scores: %v, %v", r[0].score, r[1].score)
	}
	// A turn a week after the asked day may tell of it ("last week").
	r = ranked()
	r[1].at = time.Date(2023, 12, 12, 0, 0, 0, 0, time.UTC)
	byAskedTime("What did Tim start on 6 December, 2023?", r)
	if r[1].score != 0.6 {
		t.Fatalf("a turn six days after the asked day was lowered: %v", r[1].score)
	}
}

// A question that, less its names, says only when ("Which month was John
// in Italy?") is aligned whole: a sentence about Italy answers it, where
// aligning "which month" alone found nothing.
func TestOnlyWhenLeft(t *testing.T) {
	if saysMoreThanWhen("Which month was in ?") || !saysMoreThanWhen("When did start boot camp?") {
		t.Fatal("saysMoreThanWhen misreads what is left of a question")
	}
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	al := p.cfg.Embedder.(aligner)
	q := "Which month was John in Italy?"
	if sc := p.sentenceScore(al, q, askedNames(q), "John: Italy was awesome, the food and the history!"); sc <= 0 {
		t.Fatalf("sentenceScore = %v, want > 0", sc)
	}
}

// "The week before March 14, 2024" names a time as surely as "March 2024"
// does: it is said against a date written in the question, so it selects
// the turns said then; "last week" in a question, anchored on nothing
// written, still does not.
func TestByAskedTimeAnchoredOnADate(t *testing.T) {
	nov := time.Date(2023, 11, 2, 9, 0, 0, 0, time.UTC)
	mar := time.Date(2024, 3, 14, 18, 0, 0, 0, time.UTC)
	ranked := func() []rankedSentence {
		return []rankedSentence{
			{text: "Odile: Baking bread with my nephews is our thing.", at: nov, score: 0.8},
			{text: "Odile: Last week we baked a rye loaf together.", at: mar, score: 0.6},
		}
	}
	r := ranked()
	byAskedTime("What did Odile do with her nephews the week before March 14, 2024?", r)
	if r[0].score >= r[1].score {
		t.Fatalf("the November turn (%v) still outranks the one said that week (%v)", r[0].score, r[1].score)
	}
	r = ranked()
	byAskedTime("What did Odile do with her nephews last week?", r)
	if r[0].score != 0.8 || r[1].score != 0.6 {
		t.Fatalf("a relative time anchored on nothing written changed the scores: %v, %v", r[0].score, r[1].score)
	}
}
