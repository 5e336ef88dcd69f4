package offline

import (
	"sort"
	"strings"
	"time"
)

// In a conversation a speaker often names what they talk about in one
// turn and says the rest in their next turns, without naming it again:
// "I just got accepted for a fashion internship!" … "It's a part-time
// position in the fashion department of an international company." The
// turn that aligns best with a question about the internship names it;
// the answer is in a later turn. So when the best sentence's turn lacks
// what is asked, the speaker's next turns are read for it: a sentence of
// the kind asked (typedNeighbour), or one that says a word of the
// question the first turn does not (continuedTurn).

// continuedWindow is how soon after a turn its speaker's later turns are
// taken to go on about it: their next two or three turns in a lively
// chat. On LoCoMo's conversations 0-4 (replayed answers) one minute did
// less, two and a half and five alike.
const continuedWindow = 150 * time.Second

// continuedShare is the least share of the first sentence's score a later
// one must reach to answer in its place: it must be about the question
// nearly as much, not only share one word with it.
const continuedShare = 0.9

// laterTurns are the sentences of the turns of c's speaker (among cands,
// the memory offered) said within continuedWindow after c's turn, and not
// before it, earliest first.
func laterTurns(c rankedSentence, cands []rankedSentence) []rankedSentence {
	who, _ := speakerLabel(c.text)
	if c.id == "" || c.at.IsZero() || who == "" {
		return nil
	}
	var out []rankedSentence
	for _, l := range cands {
		if l.id == c.id || l.id == "" || l.at.Before(c.at) || l.at.Sub(c.at) > continuedWindow {
			continue
		}
		if w, _ := speakerLabel(l.text); w == who {
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at.Before(out[j].at) })
	return out
}

// continuedTurn returns, for a question asking neither a typed span, a
// name nor yes/no: when c adds fewer than askedNovelMax words to the
// question and another speaker asked about it (askedOn), the speaker's
// best sentence after that question; else the first sentence of laterTurns(c) that says a content
// word of the question that c's whole turn does not (names, words of time
// and of praise aside) and scores at least continuedShare of c. Else c.
func (o *Provider) continuedTurn(al aligner, w *weigher, question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	kind := answerKind(question)
	if typedKinds[kind] || asksName(question) || kind == kindYesNo {
		return c
	}
	later := laterTurns(c, cands)
	if len(later) == 0 {
		return c
	}
	names := askedNames(question)
	skip := map[string]bool{}
	for _, n := range names {
		for _, f := range strings.Fields(n) {
			skip[stem(f)] = true // a name selects the turns, it is not what is asked
		}
	}
	said := map[string]bool{}
	for _, s := range turnOf(c, cands) {
		for st := range stemsOf(s) {
			said[st] = true
		}
	}
	var missing []string
	for _, x := range contentWords(question) {
		if st := stem(x); !skip[st] && !said[st] && !chatWords[x] && !timeWords[x] && !calendarWords[x] {
			missing = append(missing, st)
		}
	}
	if novelWords(question, c.text) < askedNovelMax {
		if l, ok := o.askedOn(al, w, question, names, c, later, cands); ok {
			return l // asked about it, the speaker says more
		}
	}
	if len(missing) == 0 {
		return c
	}
	floor := continuedShare * o.rankScore(al, w, question, names, c.text)
	for _, l := range later {
		has := stemsOf(l.text)
		for _, m := range missing {
			if has[m] && o.rankScore(al, w, question, names, l.text) >= floor {
				return l
			}
		}
	}
	return c
}

// stemsOf is the set of the stems of the content words of sentence,
// without its speaker's label.
func stemsOf(sentence string) map[string]bool {
	_, text := speakerLabel(sentence)
	m := map[string]bool{}
	for _, x := range contentWords(text) {
		m[stem(x)] = true
	}
	return m
}

// askedNovelMax: a sentence adding fewer new words than this to the
// question names what is asked about more than it tells it.
const askedNovelMax = 4

// askedShare is the least share of c's score the reply's best sentence
// must reach: a reply about something else does not answer.
const askedShare = 0.3

// askedOn reports the best sentence (by rankScore) of later, c's
// speaker's next turns, said after another speaker's turn that asks
// something (ends with "?") within continuedWindow after c's turn: "I made
// my friend some ice cream!" "What flavor?" "Chocolate and vanilla
// swirl." Found only when another speaker asked and the reply scores at
// least askedShare of c.
func (o *Provider) askedOn(al aligner, w *weigher, question string, names []string, c rankedSentence, later, cands []rankedSentence) (rankedSentence, bool) {
	who, _ := speakerLabel(c.text)
	var asked time.Time
	for _, x := range cands {
		if x.id == c.id || x.id == "" || x.at.Before(c.at) || x.at.Sub(c.at) > continuedWindow {
			continue
		}
		if by, _ := speakerLabel(x.text); by != who && by != "" && strings.HasSuffix(strings.TrimSpace(x.text), "?") {
			if asked.IsZero() || x.at.Before(asked) {
				asked = x.at
			}
		}
	}
	if asked.IsZero() {
		return c, false
	}
	best, bestSc := c, float32(-1)
	for _, l := range later {
		if l.at.Before(asked) {
			continue
		}
		if sc := o.rankScore(al, w, question, names, l.text); sc > bestSc {
			best, bestSc = l, sc
		}
	}
	return best, bestSc >= askedShare*o.rankScore(al, w, question, names, c.text)
}
