package offline

import (
	"regexp"
	"strconv"
	"strings"
)

// "How many cats does Dana have?" asks for a total that grows over a
// conversation and is told in parts: "my two cats" in March, "all three
// cats asleep" in May. A part said is never more than the whole, so of
// the counts of the thing asked said in the turns, the largest answers.
// Only a question of what someone has or has done so far (has, have,
// does … have) is a total; "How many people came to the party?" is one
// occasion's count, said once.

// totalAskedRE is "how many <things> has/have/does … have": the words of
// the thing (the last is its noun) and the verb that makes it a total.
var totalAskedRE = regexp.MustCompile(`(?i)\bhow many ((?:[a-z-]+\s+){0,3}?[a-z-]+)\s+(?:has|have|does\s+\S+(?:\s+\S+)?\s+have|do\s+\S+(?:\s+\S+)?\s+have)\b`)

// countWordRE is a count as a numeral or a word, followed by up to two
// words before its noun ("three little kittens").
var countWordRE = regexp.MustCompile(`(?i)\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+((?:[a-z-]+\s+){0,2}?)([a-z-]+)\b`)

var countValues = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

// largestCount is the largest count of the noun question asks the total
// of, said in cands, as said ("three children"); ok is false for
// another question, or when no sentence counts that noun.
func largestCount(question string, cands []rankedSentence) (string, bool) {
	m := totalAskedRE.FindStringSubmatch(question)
	if m == nil {
		return "", false
	}
	f := strings.Fields(strings.ToLower(m[1]))
	noun := f[len(f)-1]
	if noun == "times" {
		return "", false // a count of occasions, not of things
	}
	best, bestN := "", 0
	for _, c := range cands {
		_, text := speakerLabel(c.text)
		for _, g := range countWordRE.FindAllStringSubmatch(text, -1) {
			w := strings.ToLower(g[3])
			if w != noun && stem(w) != stem(noun) {
				continue
			}
			n, err := strconv.Atoi(g[1])
			if err != nil {
				n = countValues[strings.ToLower(g[1])]
			}
			if n > bestN {
				best, bestN = withoutCountedNoun(question, g[1]+" "+g[3]), n
			}
		}
	}
	return best, bestN > 0
}
