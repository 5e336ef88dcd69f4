package offline

import (
	"strings"
	"unicode"
)

// A sentence that adds a single word to the question may add the very
// thing asked: "I'm learning how to play the cello now." to "What
// instrument is Rosa learning to play?" adds only "cello", and is no
// restatement to hand over to its neighbour (answeringNeighbour). The one
// word answers when it is of the kind the question asks for (its head
// noun: "instrument" meets "cello") or a name, and not a judgement said
// after a verb of being ("it's delicious" of a dessert).

// kindAlignMin is the least alignment of the added word with a head word
// of the question for it to be of the kind asked: "instrument" meets
// "violin" at 0.65 and "guitar" at 0.61, "dessert" "tart" at 0.62,
// "meal" "pizza" at 0.55, but "deals" "stoked" at 0.01 and "project"
// "blast" at 0.11 (the offline semantic embedder).
const kindAlignMin = 0.4

// addsTheKind reports whether sentence adds exactly one content word to
// question (novelWords) and that word is a name or of the kind asked.
func addsTheKind(al aligner, question, sentence string) bool {
	_, ok := addedOfKind(al, question, sentence)
	return ok
}

// addedOfKind is the one content word sentence adds to question when it
// is a name or of the kind asked (see addsTheKind), as written.
func addedOfKind(al aligner, question, sentence string) (string, bool) {
	if novelWords(question, sentence) != 1 {
		return "", false
	}
	_, text := speakerLabel(sentence)
	text = dropOpener(text)
	asked := map[string]bool{}
	for _, w := range contentWords(question) {
		asked[stem(w)] = true
	}
	heads := headWords(question)
	judged := map[string]bool{} // "it's delicious" judges, it names no thing
	for _, m := range feelSpanRE.FindAllStringSubmatch(text, -1) {
		judged[strings.ToLower(m[2])] = true
	}
	for i, f := range strings.Fields(text) {
		ws := contentWords(f)
		if len(ws) != 1 {
			continue
		}
		w := ws[0]
		if asked[stem(w)] || calendarWords[w] || timeWords[w] || chatWords[w] || judged[w] {
			continue
		}
		if r := []rune(strings.TrimLeft(f, "\"'(")); i > 0 && len(r) > 0 && unicode.IsUpper(r[0]) {
			return strings.TrimFunc(f, notWordRune), true // a name inside the sentence
		}
		for _, h := range heads {
			for _, hw := range contentWords(h) {
				if al.Align(hw, w) >= kindAlignMin {
					return strings.TrimFunc(f, notWordRune), true
				}
			}
		}
		return "", false
	}
	return "", false
}

// notWordRune is punctuation around a word.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }
