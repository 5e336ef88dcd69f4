package offline

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/cmem/cmem/internal/timeexpr"
)

// calendarWords are capitalised words that name a time, not a subject: a
// question "How did Joanna feel on October 25, 2022 …" is about Joanna,
// and a sentence need not say "October" to answer it (its observed_at
// does).
var calendarWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday
sunday christmas easter`) {
		m[w] = true
	}
	return m
}()

// askedNames are the names of question that select the sentences able to
// answer it: namesOf less dates ("October 25", "May").
func askedNames(question string) []string {
	var out []string
	for _, n := range namesOf(question) {
		if !calendarWords[strings.Fields(n)[0]] {
			out = append(out, n)
		}
	}
	return out
}

// namedPool is the candidates that name every name (when any does); with
// loose (no tool to ask: memory is all there is), else those naming any
// of them, else all of them — a conversation's turn often leaves its
// subject unsaid ("I went to a support group yesterday").
func namedPool(cands []rankedSentence, names []string, loose bool) []rankedSentence {
	if len(names) == 0 {
		return cands
	}
	var all, some []rankedSentence
	for _, c := range cands {
		f := facetsOf(withoutVocatives(c.text, names))
		n := 0
		for _, name := range names {
			if f.has(name) {
				n++
			}
		}
		if n == len(names) {
			all = append(all, c)
		} else if n > 0 {
			some = append(some, c)
		}
	}
	switch {
	case len(all) > 0 || !loose:
		return all
	case len(some) > 0:
		return some
	}
	return cands
}

// retrievalPrior is how much the memory view's ranking of a sentence's
// item counts beside the sentence's alignment with the question: the view
// ranked the whole turn with the question's words and meaning (lexical and
// vector), which a sentence's word alignment alone misses, and a short
// reply ("Sure thing!") aligns with anything. Chosen on LoCoMo's
// conversations 0–4 (answer F1 0.168 at 0.3, 0.173 at 0.8, 0.175 at 1.5,
// 0.177 at 3): at 1.5 the view's best item wins unless another sentence
// aligns clearly better. Ranked by weighted coverage (weigher), 1.0 did
// better on the same conversations (0.221 at 0.1, 0.222 at 0.6, 0.227 at
// 1.0, 0.225 at 1.5). Re-measured with today's answerer (replayed
// answers of conversations 0–4, categories 1–4): 0.320 at 0.7, 0.322 at
// 1.0, 0.323 at 1.2, 0.324 at 1.4, 0.323 at 1.6, 0.321 at 2.0, 0.320 at 3.
const retrievalPrior = 1.4

// byPrior sorts ranked sentences best first by score plus retrievalPrior
// times their item's view score relative to the best item's; the order of
// equal keys is kept.
func byPrior(ranked []rankedSentence) {
	var top float32
	for _, c := range ranked {
		top = max(top, c.view)
	}
	key := func(c rankedSentence) float32 {
		if top <= 0 {
			return c.score
		}
		view := c.view
		if c.tool {
			view = top // fetched for this very question
		}
		return c.score + retrievalPrior*view/top
	}
	sort.SliceStable(ranked, func(i, j int) bool { return key(ranked[i]) > key(ranked[j]) })
}

// saysWhen reports whether text (observed at at) holds a time expression
// or a written date, not only the day it was said.
func saysWhen(text string, at time.Time) bool {
	_, text = speakerLabel(text)
	if !at.IsZero() && len(timeexpr.Find(text, at)) > 0 {
		return true
	}
	if _, ok := pastWeekday(text, at); ok {
		return true
	}
	return dateRE.MatchString(text)
}

// aboveFloor is the sentences of ranked scoring at least floor.
func aboveFloor(ranked []rankedSentence, floor float32) []rankedSentence {
	var out []rankedSentence
	for _, c := range ranked {
		if c.score >= floor {
			out = append(out, c)
		}
	}
	return out
}

var (
	// howLongAgoRE asks for a span of time back from when it was said.
	howLongAgoRE = regexp.MustCompile(`(?i)\bhow long ago\b`)
	// agoRE is such a span as said: "ten years ago", "a few weeks ago".
	agoRE = regexp.MustCompile(`(?i)\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple of|several|many|\d+)\s+(?:days?|weeks?|months?|years?|decades?)\s+ago\b`)
)
