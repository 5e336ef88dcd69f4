package offline

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

func TestNamesAreNames(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Tell me the silicon layout of the Orion chip.", []string{"orion"}},
		{"What food is Lyon famous for?", []string{"lyon"}},
		{"Lyon is known for its bouchons.", []string{"lyon"}},
		{"Please give the revenue of Lumen Cooperative.", []string{"lumen cooperative"}},
		// A gerund, adverb or chat opener starting a sentence is not a name.
		{"Knowing Sam was there helped.", []string{"sam"}},
		{"Honestly, Priya loved it.", []string{"priya"}},
		{"Yeah Dave, that sounds fun.", []string{"dave"}},
		{"Give me the mayor of New York. Show the Bank of England rate.", []string{"new york", "bank of england"}},
		{"What's Kalin Gakikair's runtime?", []string{"kalin gakikair"}},
		{"How many people live in Porto?", []string{"porto"}},
		{"When did Gina interview for the job?", []string{"gina"}},
		{"tell me about revenue", nil},
	} {
		if got := namesOf(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("namesOf(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestAnswerKind(t *testing.T) {
	for q, want := range map[string]string{
		"When did Gina interview?":              kindWhen,
		"In what year was Lyon established?":    kindWhen,
		"Who founded Graz?":                     kindWho,
		"Where did Caroline move from?":         kindWhere,
		"How many seats does the council have?": kindQuantity,
		"Please tell me how much rain falls.":   kindQuantity,
		"Did Melanie go camping?":               kindYesNo,
		"What is the climate of Graz?":          kindWhat,
		"Why did she leave?":                    kindWhy,
		"Tell me the revenue of Lumen.":         "",
		// A week is a time asked for; "according to X," is an opener
		// before the question word.
		"Which week did Ravi fly to Porto?":              kindWhen,
		"What weekend is the harvest fair?":              kindWhen,
		"According to Mina, who runs the bakery?":        kindWho,
		"According to the guide, where is the old mill?": kindWhere,
	} {
		if got := answerKind(q); got != want {
			t.Errorf("answerKind(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestPreciseCoverage: a remembered answer covers the question it answers
// in other words, never a question about another attribute, period or
// subject of the same name.
func TestPreciseCoverage(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	const key = "What is the third quarter revenue of Lumen cooperative?"
	const value = "The third quarter revenue of Lumen cooperative is 41 million credits."
	for _, c := range []struct {
		question string
		want     bool
	}{
		{"What is the third quarter revenue of Lumen cooperative?", true},
		{"Tell me the third quarter revenue of Lumen cooperative.", true},
		{"What was Lumen cooperative's Q3 revenue?", true},
		{"What is the third quarter income of Lumen cooperative?", true},
		{"What are the fourth quarter costs of Lumen cooperative?", false},
		{"What is the third quarter cost of Lumen cooperative?", false},
		{"What is the operating margin of Lumen cooperative?", false},
		{"Lumen bakery revenue", false},
		{"What is the third quarter revenue of Orion cooperative?", false},
		{"What is the revenue of Lumen cooperative?", false},
		{"Who runs Lumen cooperative?", false},
	} {
		if got := p.covers(c.question, key, value); got != c.want {
			t.Errorf("covers(%q) = %v, want %v", c.question, got, c.want)
		}
	}
	// A failure remembered answers nothing, whatever its key.
	if p.covers(key, key, `No information about "`+key+`" was found in memory or in the available tools.`) {
		t.Error("a no-information reply covered its own question")
	}
	// The README's walkthrough: the planner's note about bouchons does not
	// answer what food Lyon is famous for.
	if p.covers("What food is Lyon famous for?", "lyon", "bouchons are small restaurants") {
		t.Error(`"bouchons are small restaurants" covered "What food is Lyon famous for?"`)
	}
	if !p.covers("Which food is Lyon famous for?", "What food is Lyon famous for?", "Lyon is known for its bouchons.") {
		t.Error("the same question in other words was not covered")
	}
}

func TestSpan(t *testing.T) {
	for _, c := range []struct{ question, sentence, want string }{
		{"When did Gina interview for the job?", "Gina: I had my interview on 7 May 2023, wish me luck!", "7 May 2023"},
		{"When was Lyon founded?", "Lyon was founded in the year 1043.", "1043"},
		{"Who founded Lyon?", "Lyon was founded by Aldric.", "Aldric"},
		{"Who is the mayor of Lyon?", "The mayor of Lyon is Ortega.", "Ortega"},
		{"How many seats does the council of Lyon have?", "The city council of Lyon has 31 seats.", "31"}, // the question names what is counted (count_unit.go)
		{"Where did Caroline move from?", "Caroline: I moved from Sweden four years ago.", "Sweden"},
		{"Did Melanie go camping?", "Melanie: We went camping at the lake last week.", "Yes"},
		{"What food is Lyon famous for?", "Lyon is known for its bouchons.", "Lyon is known for its bouchons."},
		// No span of the kind asked: the sentence, not a guess.
		{"Who founded Lyon?", "Lyon is old.", "Lyon is old."},
	} {
		if got := span(c.question, c.sentence, time.Time{}); got != c.want {
			t.Errorf("span(%q, %q) = %q, want %q", c.question, c.sentence, got, c.want)
		}
	}
}

// TestWhenAnswersADate: a relative time is resolved against when the
// fragment was observed; a sentence without one dates from then.
func TestWhenAnswersADate(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	for _, c := range []struct{ sentence, want string }{
		{"Caroline: I went to a LGBTQ support group yesterday and it was so powerful.", "7 May 2023"},
		{"Melanie: We went camping last week!", "the week before 8 May 2023"},
		{"Melanie: I painted that lake sunrise in 2022.", "2022"},
		{"Caroline: The support group was great.", "8 May 2023"},
	} {
		if got := span("When did they go?", c.sentence, at); got != c.want {
			t.Errorf("span(when, %q) = %q, want %q", c.sentence, got, c.want)
		}
	}
}

// TestAnswerCitesItsSupport: an answer from memory cites the item it was
// drawn from, and only that one.
func TestAnswerCitesItsSupport(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	mem := []llm.MemoryItem{
		{ID: "f1", Key: "Who founded Lyon?", Value: "Lyon was founded by Aldric.", Score: 0.9},
		{ID: "f2", Key: "When was Lyon founded?", Value: "Lyon was founded in the year 1043.", Score: 0.8},
	}
	for q, want := range map[string]struct{ answer, cite string }{
		"Who was the founder of Lyon?":       {"Aldric", "f1"},
		"In what year was Lyon established?": {"1043", "f2"},
	} {
		res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: q, Memory: mem})
		if err != nil {
			t.Fatal(err)
		}
		if res.Response != want.answer || !reflect.DeepEqual(res.Cited, []string{want.cite}) {
			t.Errorf("%q: %q citing %v, want %q citing %s", q, res.Response, res.Cited, want.answer, want.cite)
		}
	}
}
