package offline

import (
	"regexp"
	"strings"
)

// A record's reader often asks for several things at once ("the target
// date, the approved budget and the discount cap"; "the diagnosis, and
// what access Leo has"). Each is a part of the question, answered by its
// own clause: one best sentence for the whole question answers a third of
// it, and four joined sentences answer it at length with stale values
// beside the current ones.

// partSplitRE cuts a question into its asked parts: at commas,
// semicolons, "and"/"or"/"as well as" and question marks.
var partSplitRE = regexp.MustCompile(`(?i)\s*(?:,\s*(?:and|or)\s+|;\s*|,\s*|\s+and\s+|\s+as well as\s+|\?\s*)`)

// askedPart is one thing a question asks for: its content words
// (factWords), in the order the question asks them.
type askedPart struct {
	words []string
	// own are the words no other part holds ("budget" of "the approved
	// budget and the approved discount"): what sets the part apart.
	own map[string]bool
	// many: the part asks for several things (asksMany), answered by
	// the whole sentence of its clause.
	many bool
	// count is how many things the part counts ("the three home
	// items"), 0 when it names no number.
	count int
	// others are the other parts' own words: a clause holding them
	// states those parts, and gains nothing for this one by them.
	others map[string]bool
	// modifier are the words that only say which thing is asked
	// (modifierWords).
	modifier map[string]bool
	// lead are the own words before the part's head (leadWords) when
	// the part is bare.
	lead map[string]bool
	// bare: the part names a thing and does not ask ("current support
	// amount" after "what are …, "), so its last word is its head.
	bare bool
	// howMany: the part asks for a count (compose_counted.go).
	howMany bool
	// byName: the part's modifier is a name ("dependency for Kestrel
	// Survey"): it says which record, and a clause holding only the
	// name states nothing the part asks (compose_score.go).
	byName bool
}

// askRE is a segment that asks: a question word or an imperative.
var askRE = regexp.MustCompile(`(?i)^(?:.*\b(?:what|which|who|whom|whose|when|where|why|how|whether)\b|\s*(?:is|are|was|were|do|does|did|can|could|should|has|have|give|tell|summari[sz]e|list|show|confirm)\b)`)

// askedParts returns question's parts. The segments before the first that
// asks ("Before the remaining work clears, what …") frame the question and
// are no part of it; a segment without a content word ("As of now") is no
// part; a segment whose words are all digits (a date's year after its
// comma) belongs to the part before it.
func askedParts(question string) []askedPart {
	segs := partSplitRE.Split(question, -1)
	for i, seg := range segs {
		if askRE.MatchString(seg) {
			segs = segs[i:]
			break
		}
	}
	var parts []askedPart
	named := namedWords(question)
	aside := false // the segments after "besides …" that ask nothing go on naming what is set aside
	for _, seg := range segs {
		if aside && !askRE.MatchString(seg) {
			continue
		}
		cut := withoutSetAside(seg)
		aside, seg = cut != seg, cut
		words := composeWords(seg)
		if len(words) == 0 {
			continue
		}
		if allDigits(words) && len(parts) > 0 {
			last := &parts[len(parts)-1]
			last.words = append(last.words, words...)
			continue
		}
		mod := modifierWords(seg)
		parts = append(parts, askedPart{words: words, many: asksMany(seg), count: countOf(seg), modifier: mod, bare: !askRE.MatchString(seg),
			howMany: howManyRE.MatchString(seg), byName: len(mod) > 0 && subset(mod, named)})
	}
	ownWords(parts)
	for k := range parts {
		if parts[k].bare {
			parts[k].lead = leadWords(parts[k])
		}
	}
	return parts
}

// leadWords are the own words of p before its head (headAt) when the
// head is its own: in "the current support amount" the amount is what is
// asked and "support" says which, so a note's "current amount 3,690 USD"
// states it about as well as "3,710 USD is the support amount".
func leadWords(p askedPart) map[string]bool {
	out := map[string]bool{}
	at := headAt(p)
	if at < 1 || !p.own[p.words[at]] {
		return out
	}
	for _, w := range p.words[:at] {
		if p.own[w] && w != p.words[at] && !p.modifier[w] {
			out[w] = true
		}
	}
	return out
}

// headAt returns the index of the part's head: its last word that is not
// in its modifier ("the diagnosis for the Horizon incident" is about the
// diagnosis), -1 when there is none.
func headAt(p askedPart) int {
	for i := len(p.words) - 1; i >= 0; i-- {
		if !p.modifier[p.words[i]] {
			return i
		}
	}
	return -1
}

// ownWords sets each part's own words: those no other part holds, or all
// its words when every one is shared.
func ownWords(parts []askedPart) {
	lists := make([][]string, len(parts))
	for i, p := range parts {
		lists[i] = p.words
	}
	in := docFreq(lists)
	for k := range parts {
		own := map[string]bool{}
		for _, w := range parts[k].words {
			if in[w] == 1 {
				own[w] = true
			}
		}
		if len(own) == 0 {
			for _, w := range parts[k].words {
				own[w] = true
			}
		}
		parts[k].own = own
	}
	for k := range parts {
		parts[k].others = map[string]bool{}
		for l := range parts {
			for w := range parts[l].own {
				if l != k && !parts[k].own[w] {
					parts[k].others[w] = true
				}
			}
		}
	}
}

// allDigits says whether every word is a number.
func allDigits(words []string) bool {
	for _, w := range words {
		if strings.Trim(w, "0123456789") != "" {
			return false
		}
	}
	return true
}

// head returns the part's head (headAt) when it is its own ("" when
// another part holds it too: "date" of "review date" and "public date").
func (p askedPart) head() string {
	at := headAt(p)
	if !p.bare || at < 0 || !p.own[p.words[at]] {
		return ""
	}
	return p.words[at]
}

// subset says whether every word of a is in b.
func subset(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}
