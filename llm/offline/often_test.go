package offline

import "testing"

// Asked how often, a sentence saying a frequency answers, though a better
// aligned one about the same subject scores higher; asked anything else,
// nothing is preferred.
func TestSaysHowOften(t *testing.T) {
	ranked := []rankedSentence{
		{text: "Audrey: For me, walks with the dogs are the best part of my day.", score: 0.9},
		{text: "Audrey: We go out multiple times a day, rain or shine.", score: 0.7},
	}
	c, ok := saysHowOften("How often does Audrey take her dogs for walks?", ranked, 0.5)
	if !ok || c.score != 0.7 {
		t.Fatalf("saysHowOften = %q, %v; want the sentence saying a frequency", c.text, ok)
	}
	if got := span("How often does Audrey take her dogs for walks?", c.text, c.at); got != "multiple times a day" {
		t.Fatalf("span = %q", got)
	}
	if _, ok := saysHowOften("How often does Audrey take her dogs for walks?", ranked, 0.8); ok {
		t.Fatal("a sentence below the floor was preferred")
	}
	if _, ok := saysHowOften("What does Audrey do with her dogs?", ranked, 0.5); ok {
		t.Fatal("a frequency preferred for a question not asking how often")
	}
}
