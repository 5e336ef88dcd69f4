package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cmem/cmem/embedding"
)

// Names are names: a capitalised word is part of a name unless it only
// opens a sentence. A word that opens a sentence (or a question) is a name
// only when it is not a question word, an imperative or another word a
// sentence commonly starts with (notNames), nor followed by an object
// (nameWord), so "Tell me the revenue of Lumen" and "Forecast the ROI"
// name Lumen and ROI, not Tell or Forecast, while "Lyon is known for its
// bouchons" names Lyon. Consecutive capitalised words are one name ("Lumen
// Cooperative", "New York"), also across "of" / "de" / "van" inside a
// name ("Bank of Lumen").

// notNames are words that open sentences and questions without naming
// anything: imperatives and courtesy words, question words, auxiliaries
// and connectives. Stop words (embedding.StopWord) count as well.
var notNames = func() map[string]bool {
	const list = `tell give please show list name describe explain find compare summarize summarise state provide
let lets say recall remind remember check look get make help explain define identify calculate compute count
what which who whom whose when where why how is are was were do does did can could would should will shall may
might must has have had yes no ok okay hi hello hey thanks thank well so and but or also then now today yesterday
tomorrow however meanwhile actually anyway besides still just oh wow great nice sure maybe perhaps sorry
yeah yep yup nope congrats congratulations glad sounds awesome cool totally definitely absolutely honestly
btw haha aww omg good love plus anyways lol wait alright right true exactly agreed same guess hope bye cheers long last next
everyone everybody everything someone somebody something anyone anybody anything nobody nothing never even
it its this that these those there here he she they we you i my our your his her their in on at for from by with
after before during since until if because although though while as about over under any all some each every
the a an`
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}()

// nameJoiners may stand inside a multiword name between capitalised words.
var nameJoiners = map[string]bool{"of": true, "de": true, "van": true, "von": true, "la": true, "del": true, "da": true}

// word is one word of a text with its place in its sentence.
type word struct {
	text    string // as written, without surrounding punctuation or 's
	lower   string
	initial bool // opens a sentence, a quoted line or a speaker's turn
	// possessive: written with 's, which ends a name ("Ed Sheeran's
	// Perfect" names Ed Sheeran and Perfect).
	possessive bool
}

// words splits text into words, marking those that open a sentence: the
// first word, a word after ., !, ?, : or a line break.
func words(text string) []word {
	text = strings.ReplaceAll(text, "’", "'")
	var out []word
	initial := true
	for _, f := range strings.Fields(text) {
		core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		poss := strings.HasSuffix(core, "'s")
		core = strings.TrimSuffix(strings.TrimSuffix(core, "'s"), "'")
		if core != "" {
			out = append(out, word{text: core, lower: strings.ToLower(core), initial: initial, possessive: poss})
			initial = false
		}
		if last, _ := utf8.DecodeLastRuneInString(f); last == '.' || last == '!' || last == '?' || last == ':' {
			initial = true
		}
		if strings.HasSuffix(strings.TrimRight(f, `"')`), ".") || strings.HasSuffix(strings.TrimRight(f, `"')`), "?") {
			initial = true
		}
	}
	return out
}

// capitalised reports whether w starts with an upper-case letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// auxiliaries are stop words a sentence's subject is followed by.
var auxiliaries = map[string]bool{"is": true, "was": true, "are": true, "were": true, "has": true, "had": true, "have": true,
	"will": true, "would": true, "can": true, "could": true, "should": true, "does": true, "did": true, "do": true, "and": true, "or": true}

// nameWord reports whether ws[i], in its place, can be part of a name. A
// capitalised word opening a sentence is one unless it is a known opener
// (notNames) or it is followed by a determiner, pronoun or preposition —
// an imperative's object ("Forecast the ROI", "Compute it") — rather than
// by a verb, as a name that is the sentence's subject is ("Lyon is",
// "Melanie went").
func nameWord(ws []word, i int) bool {
	w := ws[i]
	if !capitalised(w.text) {
		return false
	}
	if pronounContraction(w.lower) {
		return false // "You're", "They'd", "Let's": a pronoun, however written
	}
	if !w.initial {
		return true
	}
	if notNames[w.lower] || embedding.StopWord(w.lower) {
		return false
	}
	if len(w.lower) > 5 && (strings.HasSuffix(w.lower, "ing") || strings.HasSuffix(w.lower, "ly")) {
		return false // "Knowing …", "Honestly, …": a gerund or adverb opens the sentence
	}
	if i+1 < len(ws) && !ws[i+1].initial {
		next := ws[i+1].lower
		if embedding.StopWord(next) && !auxiliaries[next] {
			return false
		}
	}
	return true
}

// nameSet is the names of text (namesOf) and each word of them, for
// telling a name the question already says from a new one.
func nameSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, n := range namesOf(text) {
		set[n] = true
		for _, p := range strings.Fields(n) {
			set[p] = true
		}
	}
	return set
}

// namesOf returns the names in text, lower-case, multiword names joined
// by one space, in order of first appearance, each once.
func namesOf(text string) []string {
	ws := words(text)
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(ws); i++ {
		if !nameWord(ws, i) {
			continue
		}
		parts := []string{ws[i].lower}
		j := i + 1
		for j < len(ws) && !ws[j-1].possessive {
			if !ws[j].initial && capitalised(ws[j].text) && !isFirstPerson(ws[j].lower) {
				// "On Friday I went": "I" is capitalised but never part of a name.
				parts = append(parts, ws[j].lower)
				j++
				continue
			}
			if nameJoiners[ws[j].lower] && j+1 < len(ws) && !ws[j+1].initial && capitalised(ws[j+1].text) {
				parts = append(parts, ws[j].lower, ws[j+1].lower)
				j += 2
				continue
			}
			break
		}
		i = j - 1
		n := strings.Join(parts, " ")
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// isFirstPerson reports whether w is "I" or one of its contractions ("I'm",
// "I've", "I'd", "I'll"), capitalised anywhere in a sentence and never a
// name.
func isFirstPerson(w string) bool {
	return w == "i" || strings.HasPrefix(w, "i'") || strings.HasPrefix(w, "i’")
}

// pronounContraction reports whether w (lower case) is a stop word or
// opener contracted with a verb ("you're", "we'd", "that'll", "let's"):
// capitalised at a sentence's start, it is never a name.
func pronounContraction(w string) bool {
	head, _, ok := strings.Cut(strings.ReplaceAll(w, "’", "'"), "'")
	// "I'm" stays as namesOf has always counted it (see isFirstPerson).
	return ok && head != "" && head != "i" && (notNames[head] || embedding.StopWord(head))
}
