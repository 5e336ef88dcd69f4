package offline

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? Four", []string{"One.", "Two!", "Three?", "Four"}},
		{"Pi is 3.14 and v1.2.3 works.  Next line\nSecond para.", []string{"Pi is 3.14 and v1.2.3 works.", "Next line", "Second para."}},
		{"He said \"stop.\" Then left...  Done", []string{"He said \"stop.\"", "Then left...", "Done"}},
		{"  \n \n", nil},
	}
	for _, tc := range tests {
		if got := sentences(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("sentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestArithmetic(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"What is 1,200 * 1.15 - 300 for the pilot?", "1200 * 1.15 - 300", true},
		{"compute (250000 - 40000) / 3 please", "(250000 - 40000) / 3", true},
		{"ROI of 5 times 12 plus 7", "5 * 12 + 7", true},
		{"sales from 2024-01-15 to 2024-03-01", "", false},
		{"the years 1990-2024", "", false},
		{"version 1.2.3 only", "", false},
		{"no numbers here", "", false},
	}
	for _, tc := range tests {
		got, ok := arithmetic(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("arithmetic(%q) = %q,%v want %q,%v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestToolArgs(t *testing.T) {
	const sub = "Compute 120 * 3 for the market report"
	tests := []struct {
		name   string
		schema string
		want   string // JSON, or "" for not callable
	}{
		{"query", `{"type":"object","properties":{"query":{"type":"string"},"k":{"type":"integer"}},"required":["query"]}`,
			`{"query":"` + sub + `"}`},
		{"first required string", `{"properties":{"topic":{"type":"string"},"text":{"type":["string","null"]}},"required":["text"]}`,
			`{"text":"` + sub + `"}`},
		{"second required string unfillable", `{"properties":{"topic":{"type":"string"},"text":{"type":"string"}},"required":["text","topic"]}`, ""},
		{"expression", `{"properties":{"expression":{"type":"string"}},"required":["expression"]}`,
			`{"expression":"120 * 3"}`},
		{"default fills required", `{"properties":{"q":{"type":"string"},"limit":{"type":"integer","default":5}},"required":["q","limit"]}`,
			`{"limit":5,"q":"` + sub + `"}`},
		{"optional string only", `{"properties":{"b":{"type":"string"},"a":{"type":"string"}}}`,
			`{"a":"` + sub + `"}`},
		{"no parameters", ``, `{}`},
		{"unfillable required", `{"properties":{"n":{"type":"integer"}},"required":["n"]}`, ""},
		{"bad schema", `{"properties":[]}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := toolArgs(json.RawMessage(tc.schema), sub)
			if tc.want == "" {
				if ok {
					t.Fatalf("callable with %s, want not", got)
				}
				return
			}
			if !ok {
				t.Fatal("not callable")
			}
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal([]byte(tc.want), &w)
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			if string(gb) != string(wb) {
				t.Fatalf("args %s, want %s", gb, wb)
			}
		})
	}
	if _, ok := toolArgs(json.RawMessage(`{"properties":{"expression":{"type":"string"}},"required":["expression"]}`), "no maths"); ok {
		t.Fatal("expression tool callable without an expression")
	}
}

func TestParaphraseOffline(t *testing.T) {
	in := "I am  planning a launch.   My budget is 5000 EUR and we're late.\n\n  Then I’ll ask me   again. The US market is ours."
	want := "The user is planning a launch. The user's budget is 5000 EUR and they're late.\n" +
		"Then the user will ask the user again. The US market is theirs."
	if got := paraphraseOffline(in); got != want {
		t.Fatalf("paraphrase\n got %q\nwant %q", got, want)
	}
}

// "I'm" is capitalised mid-sentence but names no one: asked who, the
// answer is the name the sentence holds. (namesOf still counts "I", which
// covers relies on to tell a question about the asker from a fact.)
func TestFirstPersonIsNoName(t *testing.T) {
	if got := span("Who is Melanie a fan of?", "Melanie: Well, I'm a fan of Ed Sheeran.", time.Time{}); got != "Ed Sheeran" {
		t.Fatalf("span = %q, want Ed Sheeran", got)
	}
}

// A pronoun contracted with a verb opens many turns ("You're …") and is
// no name: asked who, the answer is the name the sentence holds.
func TestContractionIsNoName(t *testing.T) {
	if got := span("Who did Evan tell about his trip?", "Evan: You're the first one I told, after Sam.", time.Time{}); got != "Sam" {
		t.Fatalf("span = %q, want Sam", got)
	}
	for _, w := range []string{"you're", "they'd", "let's", "that'll", "we’ve"} {
		if !pronounContraction(w) {
			t.Errorf("pronounContraction(%q) = false", w)
		}
	}
	if pronounContraction("o'brien") || pronounContraction("i'm") {
		t.Error("a name or I'm taken for a pronoun contraction")
	}
}
