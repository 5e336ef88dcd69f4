package offline

// A turn often says what a question asks about in one sentence and the
// answer in the next: "Last Friday I went to a council meeting for
// adoption. It was inspiring - so many people wanted to create loving
// homes…" to "What did Caroline see at the council meeting?". The
// sentence that aligns best with the question then only restates it, and
// the answer is its neighbour in the same turn.

// timeWords say when, which a what question does not ask.
var timeWords = map[string]bool{"last": true, "yesterday": true, "today": true, "tonight": true, "ago": true, "week": true,
	"weekend": true, "month": true, "year": true, "night": true, "recently": true, "lately": true, "morning": true}

// novelWords counts the content words of sentence (without its speaker's
// label) that the question does not already say, by stem, other than
// words of time.
func novelWords(question, sentence string) int {
	_, text := speakerLabel(sentence)
	text = dropOpener(text) // "Hey Gina," adds nothing to what was asked
	asked := map[string]bool{}
	for _, w := range contentWords(question) {
		asked[stem(w)] = true
	}
	n := 0
	for _, w := range contentWords(text) {
		if !asked[stem(w)] && !calendarWords[w] && !timeWords[w] && !chatWords[w] {
			n++
		}
	}
	return n
}

// restatesMin is the fewest new content words a sentence must add to the
// question to answer it rather than restate it.
const restatesMin = 2

// answeringNeighbour returns, when c only restates question (fewer than
// restatesMin new words) and the question asks for something other than
// a date, name, place, number or yes/no, the sentence next to it in the
// same memory item that adds the most (the following one on a tie); else
// c.
func answeringNeighbour(question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	kind := answerKind(question)
	if typedKinds[kind] || asksName(question) {
		return typedNeighbour(kind, question, c, cands)
	}
	if kind == kindYesNo || c.id == "" || novelWords(question, c.text) >= restatesMin {
		return c
	}
	if _, text := speakerLabel(c.text); quotedTitleOK(question, text) {
		return c // the title it quotes is what was asked
	}
	best, bestN := c, novelWords(question, c.text)
	for _, p := range []int{c.pos + 1, c.pos - 1} {
		if p < 0 || p >= len(cands) || cands[p].id != c.id {
			continue
		}
		if n := novelWords(question, cands[p].text); n > bestN {
			best, bestN = cands[p], n
		}
	}
	return best
}

// typedNeighbour returns, when c holds no span of the kind question asks
// (a number, a name, a place, a word of feeling), the sentence next to it
// in the same memory item that does (the following one first): "The
// toughest thing was saying goodbye to Max. He was part of our family for
// 10 years." to "How long was Max part of John's family?"; else the first
// sentence that does in the speaker's next turns (laterTurns). Else c.
func typedNeighbour(kind, question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	holds := func(s rankedSentence) bool {
		if asksName(question) {
			_, text := speakerLabel(s.text)
			return hasName(question, text)
		}
		if kind == kindWhen && !howLongAgoRE.MatchString(question) {
			// Every sentence was said on a day; the one that says when
			// ("last Tuesday") tells the day it happened.
			return saysWhen(s.text, s.at)
		}
		_, ok := typedSpan(kind, question, s.text, s.at)
		return ok
	}
	if c.id == "" || holds(c) {
		return c
	}
	for _, p := range []int{c.pos + 1, c.pos - 1} {
		if p >= 0 && p < len(cands) && cands[p].id == c.id && holds(cands[p]) {
			return cands[p]
		}
	}
	for _, l := range laterTurns(c, cands) {
		if holds(l) {
			return l // the speaker goes on to say it (continued.go)
		}
	}
	return c
}

// quotedTitleOK reports whether text quotes a title question asks for.
func quotedTitleOK(question, text string) bool {
	_, ok := quotedTitle(question, text)
	return ok
}
