package semantic

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cmem/cmem/embedding"
)

// token is one content word of a text.
type token struct {
	word    string
	negated bool // in the scope of a preceding "not", "no", "never"...
	// wh: a question-type token (whPrefix + kind), matched only by the
	// same kind.
	wh bool
	// proper: written with a capital (a name, or a content word opening
	// a sentence, which cannot be told apart without a tagger): its
	// vector is mostly its own, so that "Lyon" is not "Marseille".
	proper bool
}

// negators open a negation scope that lasts until punctuation or
// negationScope content words.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "without": true, "nor": true, "neither": true,
	"none": true, "cannot": true, "nobody": true, "nothing": true, "nowhere": true,
}

const negationScope = 3

// whWords ask for a kind of answer: a person, a time, a place, a reason, a
// quantity ("how many", "how much"). They are stop words to the rest of
// cmem but here they are what tells "When was Graz founded?" from "Who
// founded Graz?". "what" and "which" ask for anything and stay stop words.
var whWords = map[string]string{
	"who": "who", "whom": "who", "whose": "who", "when": "when", "where": "where", "why": "why",
}

// openers are words that open sentences without naming anything:
// imperatives, courtesy and discourse words. At the start of a sentence
// they are dropped: capitalised they are still not names, and they ask
// rather than say what is asked about.
var openers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`tell give please show list name describe explain find compare summarize summarise
state provide let lets say recall remind remember check look get make help define identify calculate compute count
yes ok okay hi hello hey thanks thank well also now however meanwhile actually anyway
besides still just oh wow great nice sure maybe perhaps sorry`) {
		m[w] = true
	}
	return m
}()

// whPrefix marks a question-type token, which no word of the vocabulary
// starts with.
const whPrefix = "?"

// tokens splits text into content words, lower-case, marking those in a
// negation scope and those written with a capital. "n't" counts as "not". Stop words (embedding.StopWord) and
// one-letter words are dropped; the negators themselves only mark.
func tokens(text string) []token {
	text = strings.ReplaceAll(text, "n't", " not")
	text = strings.ReplaceAll(text, "N'T", " NOT")
	text = strings.ReplaceAll(text, "’", "'")
	var out []token
	scope := 0
	start := -1
	lastHow, lastWhat := false, false
	opening := true // the next word opens a sentence
	flush := func(end int) {
		if start < 0 {
			return
		}
		orig := strings.Trim(text[start:end], "'")
		w := strings.ToLower(orig)
		start = -1
		first, _ := utf8.DecodeRuneInString(orig)
		proper := unicode.IsUpper(first)
		if opening && openers[w] {
			// An imperative or courtesy word opening a sentence ("Tell
			// me…", "Please…") asks, it is not asked about: not a name,
			// nor a content word ("Please give" opens with both).
			return
		}
		opening = false
		w = strings.TrimSuffix(w, "'s")
		prevHow, prevWhat := lastHow, lastWhat
		lastHow, lastWhat = w == "how", w == "what" || w == "which"
		switch {
		case prevWhat && (w == "year" || w == "date" || w == "time" || w == "century"):
			out = append(out, token{word: whPrefix + "when", wh: true}, token{word: w, proper: unicode.IsUpper(first)})
		case negators[w]:
			scope = negationScope
		case whWords[w] != "":
			out = append(out, token{word: whPrefix + whWords[w], wh: true})
		case prevHow && (w == "many" || w == "much"):
			out = append(out, token{word: whPrefix + "quantity", wh: true})
		case utf8.RuneCountInString(w) < 2 || embedding.StopWord(w):
		default:
			out = append(out, token{word: w, negated: scope > 0, proper: proper})
			if scope > 0 {
				scope--
			}
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' && start >= 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		if r != ' ' && r != '\t' && r != '-' && r != '"' {
			scope = 0 // punctuation ends a negation scope
		}
		if r == '.' || r == '!' || r == '?' || r == ':' || r == '\n' {
			opening = true
		}
	}
	flush(len(text))
	return out
}
