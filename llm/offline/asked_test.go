package offline

import (
	"testing"
	"time"
)

// A chat log's dated turn label is a label: the time in it is not the
// answer to "when" (the relative expression resolved against observed_at
// is), and an answer does not quote it.
func TestDatedLabel(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	turn := "Caroline (1:56 pm on 8 May, 2023): I went to a support group yesterday and it was so powerful."
	if who, text := speakerLabel(turn); who != "Caroline" || text[:6] != "I went" {
		t.Fatalf("speakerLabel = %q, %q", who, text)
	}
	if got := span("When did Caroline go to the support group?", turn, at); got != "7 May 2023" {
		t.Fatalf("when = %q, want 7 May 2023", got)
	}
	if got := span("When did Caroline go to the support group?", "Caroline (1:56 pm on 8 May, 2023): I went last week.", at); got != "the week before 8 May 2023" {
		t.Fatalf("when = %q, want the week before 8 May 2023", got)
	}
}

// A date in a question names no subject a sentence must repeat.
func TestAskedNamesSkipDates(t *testing.T) {
	got := askedNames("How did Joanna feel on October 25, 2022 about the film?")
	if len(got) != 1 || got[0] != "joanna" {
		t.Fatalf("askedNames = %q, want [joanna]", got)
	}
}

// With no tool to ask, a question whose name no sentence repeats is
// answered from the nearest (a turn often leaves its subject unsaid);
// with a tool, only sentences naming it may answer.
func TestNamedPoolLoose(t *testing.T) {
	cands := []rankedSentence{{text: "Melanie: I went yesterday."}, {text: "Melanie: I saw Caroline at the park."}}
	if got := namedPool(cands, []string{"caroline"}, false); len(got) != 1 {
		t.Fatalf("strict pool = %v, want the one naming Caroline", got)
	}
	if got := namedPool(cands, []string{"oliver"}, false); len(got) != 0 {
		t.Fatalf("strict pool = %v, want none", got)
	}
	if got := namedPool(cands, []string{"oliver"}, true); len(got) != 2 {
		t.Fatalf("loose pool = %v, want all", got)
	}
}

// "Would X likely …" is answered as a guess, "Likely yes" or "Likely no".
func TestHypotheticalYesNo(t *testing.T) {
	if got := span("Would Caroline likely move back home?", "Caroline: I would never leave this city.", time.Time{}); got != "Likely no" {
		t.Fatalf("got %q, want Likely no", got)
	}
	if got := span("Would Melanie enjoy a concert?", "Melanie: I love live music.", time.Time{}); got != "Likely yes" {
		t.Fatalf("got %q, want Likely yes", got)
	}
	// A yes/no answer is the word alone: the sentence is its support.
	if got := span("Did Melanie go?", "Melanie: I did not go.", time.Time{}); got != "No" {
		t.Fatalf("got %q, want a plain No", got)
	}
}

// A question asking for several things is told so by its plural object.
func TestAsksList(t *testing.T) {
	for q, want := range map[string]bool{
		"What books has John read?":                  true,
		"Which geographical locations has Tim been?": true,
		"What kinds of desserts did Maria bake?":     true,
		"Which classical musicians does Mel enjoy?":  true,
		"Which song motivates Caroline?":             false,
		"What is Jon's favorite style of dance?":     false,
		"What does Melanie do to destress?":          false,
		"What was the class?":                        false,
	} {
		if got := asksList(q); got != want {
			t.Errorf("asksList(%q) = %v, want %v", q, got, want)
		}
	}
}

// The view's ranking breaks what alignment cannot: of two sentences
// aligning alike, the one from the better-ranked item comes first.
func TestByPrior(t *testing.T) {
	r := []rankedSentence{{text: "a", score: 0.5, view: 0.2}, {text: "b", score: 0.5, view: 0.6}}
	byPrior(r)
	if r[0].text != "b" {
		t.Fatalf("order %v, want b first", r)
	}
}

// A sentence that only restates the question hands over to its neighbour
// in the same turn, which says what was asked.
func TestAnsweringNeighbour(t *testing.T) {
	cands := []rankedSentence{
		{text: "Caroline: Last Friday I went to a council meeting for adoption.", pos: 0, id: "f1"},
		{text: "Caroline: So many people wanted to create loving homes for children.", pos: 1, id: "f1"},
		{text: "Melanie: Loving homes for children matter so much to everyone here.", pos: 2, id: "f2"},
	}
	q := "What did Caroline see at the council meeting for adoption?"
	if got := answeringNeighbour(q, cands[0], cands); got.pos != 1 {
		t.Fatalf("got %q, want the next sentence of the same turn", got.text)
	}
	if got := answeringNeighbour(q, cands[1], cands); got.pos != 1 {
		t.Fatalf("a sentence that adds to the question is kept, got %q", got.text)
	}
	if got := answeringNeighbour("When did Caroline go to the council meeting for adoption?", cands[0], cands); got.pos != 0 {
		t.Fatalf("a when question keeps its sentence, got %q", got.text)
	}
}

// Asked who, of several new names the one next to what is asked answers.
func TestNearestNewName(t *testing.T) {
	s := "Melanie: I'm a fan of classical like Bach and Mozart, as well as modern music like Ed Sheeran's Perfect."
	if got := span("Who is Melanie a fan of in terms of modern music?", s, time.Time{}); got != "Ed Sheeran" {
		t.Fatalf("got %q, want Ed Sheeran", got)
	}
	if got := span("Who is Melanie a fan of in terms of classical music?", s, time.Time{}); got != "Bach" {
		t.Fatalf("got %q, want Bach", got)
	}
}

// "Last Friday" is given relative to the day it was said.
func TestWeekdayRelative(t *testing.T) {
	at := time.Date(2023, 7, 15, 10, 0, 0, 0, time.UTC)
	got := span("When did Melanie go to the pottery workshop?", "Melanie: Last Friday I took my kids to a pottery workshop.", at)
	if got != "the Friday before 15 July 2023" {
		t.Fatalf("got %q", got)
	}
}

// Asked how long ago, the answer is the span as said, not a date.
func TestHowLongAgo(t *testing.T) {
	at := time.Date(2023, 6, 27, 10, 0, 0, 0, time.UTC)
	if got := span("How long ago was Caroline's 18th birthday?", "Caroline: A friend made it for my 18th birthday ten years ago.", at); got != "ten years ago" {
		t.Fatalf("got %q, want ten years ago", got)
	}
}

// "Last weekend" is given relative to the day it was said, as "last
// Friday" is: the weekend meant is not known when said on a weekend.
func TestWeekendRelative(t *testing.T) {
	at := time.Date(2024, 3, 11, 9, 0, 0, 0, time.UTC)
	if got := span("When did Odile repaint the shed?", "Odile: We repainted the shed last weekend, finally.", at); got != "the weekend before 11 March 2024" {
		t.Fatalf("got %q, want the weekend before 11 March 2024", got)
	}
	if got := span("When did Odile go sailing?", "Odile: We went sailing two weekends ago.", at); got != "two weekends before 11 March 2024" {
		t.Fatalf("got %q, want two weekends before 11 March 2024", got)
	}
	if got := span("When is Odile visiting the coast?", "Odile: I'm driving to the coast next weekend.", at); got != "the weekend after 11 March 2024" {
		t.Fatalf("got %q, want the weekend after 11 March 2024", got)
	}
}
