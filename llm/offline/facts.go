package offline

import (
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/cmem/cmem/llm"
)

// Facts answers (AnswerRequest.Facts): the sentences of memory that match
// the question best, newest first, within a short answer. A record's
// reader asks for its state in one question ("target date, budget and
// discount"); one best clause would answer a third of it. Each sentence is
// memory's own, so the answer cites what it rests on and adds no word of
// its own.

const (
	factsMaxSentences = 4
	factsMaxWords     = 80
)

// factSentenceRE ends a sentence at . ! or ? followed by a space or the
// end, so "12.5 mg" and "Dr. Shah" stay whole... mostly: "Dr." is cut.
var factSentenceRE = regexp.MustCompile(`(?:[^.!?]|[.!?]+[^\s.!?])+(?:[.!?]+["'”’]?|$)`)

// factStop are question words that say what kind of answer is wanted,
// not what it is about.
var factStop = map[string]bool{
	"what": true, "which": true, "when": true, "where": true, "who": true, "whom": true, "whose": true, "how": true,
	"the": true, "and": true, "are": true, "is": true, "was": true, "were": true, "does": true, "did": true, "for": true,
	"now": true, "current": true, "currently": true, "give": true, "tell": true, "me": true, "us": true, "our": true,
	"this": true, "that": true, "these": true, "those": true, "with": true, "any": true, "still": true, "right": true,
	"point": true, "as": true, "of": true, "can": true, "use": true, "should": true, "we": true, "you": true, "your": true,
	"summarize": true, "summary": true, "status": true, "exact": true, "please": true, "from": true, "about": true,
	"have": true, "has": true, "there": true, "their": true, "its": true, "them": true, "they": true, "also": true,
}

func factWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !factStop[w] {
			if len(w) > 6 { // a crude stem: "approved" ~ "approval"
				w = w[:6]
			}
			out = append(out, w)
		}
	}
	return out
}

// factsAnswer composes the answer; ok is false when no sentence matches.
func factsAnswer(question string, memory []llm.MemoryItem) (llm.AnswerResult, bool) {
	q := map[string]bool{}
	for _, w := range factWords(question) {
		q[w] = true
	}
	if len(q) == 0 {
		return llm.AnswerResult{}, false
	}
	need := 2
	if len(q) <= 2 {
		need = 1
	}
	type cand struct {
		text  string
		id    string
		score int
		order int
	}
	items := append([]llm.MemoryItem(nil), memory...)
	sort.SliceStable(items, func(i, j int) bool { return items[i].ObservedAt.After(items[j].ObservedAt) })
	var cands []cand
	seen := map[string]bool{}
	for i, m := range items {
		for _, s := range factSentenceRE.FindAllString(m.Value, -1) {
			s = strings.TrimSpace(s)
			norm := strings.ToLower(strings.Join(strings.Fields(s), " "))
			if s == "" || seen[norm] {
				continue
			}
			seen[norm] = true
			hit := map[string]bool{}
			for _, w := range factWords(s) {
				if q[w] {
					hit[w] = true
				}
			}
			if len(hit) >= need {
				cands = append(cands, cand{text: s, id: m.ID, score: len(hit), order: i})
			}
		}
	}
	if len(cands) == 0 {
		return llm.AnswerResult{}, false
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].order < cands[j].order
	})
	var out []string
	var cited []string
	words := 0
	for _, c := range cands {
		n := len(strings.Fields(c.text))
		if len(out) > 0 && (len(out) >= factsMaxSentences || words+n > factsMaxWords) {
			break
		}
		out = append(out, c.text)
		words += n
		cited = append(cited, c.id)
	}
	return llm.AnswerResult{Response: strings.Join(out, " "), Cited: cited}, true
}
