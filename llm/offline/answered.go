package offline

import (
	"strings"
	"time"
)

// A question one speaker asks the other aligns with a question about the
// same thing better than the reply does, which rarely repeats its words:
// "How long have you two been together?" "Twelve years this spring!" A
// sentence that asks something tells nothing of its own, so when the best
// sentence is a question and the other speaker's next turn is among the
// memory offered, that turn's best sentence answers in its place.

// replyTurn is the sentences of the first turn (among cands) by another
// speaker said after c's turn and within replyWindow of it, or nil.
func replyTurn(c rankedSentence, cands []rankedSentence) []rankedSentence {
	who, _ := speakerLabel(c.text)
	if c.id == "" || c.at.IsZero() || who == "" {
		return nil
	}
	first, firstAt := "", time.Time{}
	for _, x := range cands {
		by, _ := speakerLabel(x.text)
		if x.id == "" || x.id == c.id || by == "" || by == who || !x.at.After(c.at) || x.at.Sub(c.at) > replyWindow {
			continue
		}
		if first == "" || x.at.Before(firstAt) {
			first, firstAt = x.id, x.at
		}
	}
	var out []rankedSentence
	for _, x := range cands {
		if first != "" && x.id == first {
			out = append(out, x)
		}
	}
	return out
}

// answeredQuestion returns, when c is a question (ends with "?") adding
// fewer than restatesMin words to question (a question that says
// something, "Sunflowers mean warmth, right?", may answer), the
// sentence of its reply turn (replyTurn) that holds the kind of answer
// question asks (for a typed question), else the one that scores best by
// rankScore; else c.
func (o *Provider) answeredQuestion(al aligner, w *weigher, question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	if !strings.HasSuffix(strings.TrimSpace(c.text), "?") || novelWords(question, c.text) >= restatesMin {
		return c // not a question, or one that tells what it asks to confirm
	}
	reply := replyTurn(c, cands)
	if len(reply) == 0 {
		return c
	}
	kind := answerKind(question)
	if typedKinds[kind] {
		for _, r := range reply {
			if _, ok := typedSpan(kind, question, r.text, r.at); ok {
				return r
			}
		}
	}
	names := askedNames(question)
	best, bestSc := reply[0], float32(-1)
	for _, r := range reply {
		if strings.HasSuffix(strings.TrimSpace(r.text), "?") {
			continue // asked back, not answered
		}
		if sc := o.rankScore(al, w, question, names, r.text); sc > bestSc {
			best, bestSc = r, sc
		}
	}
	if bestSc < 0 {
		return c
	}
	return best
}
