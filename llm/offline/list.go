package offline

import (
	"regexp"
	"sort"
	"strings"

	"github.com/cmem/cmem/embedding"
)

// listItems is how many items a question asking for several things
// ("What books has John read?") gathers, from as many memory items.
const listItems = 5

// pluralRE catches "what/which [kind(s) of] [ADJ] NOUNs AUX …" ("What
// books has John read?", "Which classical musicians does Melanie enjoy?"):
// the question asks for several things, which a conversation tells one
// turn at a time. The auxiliary after the noun tells a plural object from
// a verb ("Which song motivates Caroline?").
var pluralRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:([a-z-]+)\s+)?([a-z-]+)\s+(?:has|have|had|did|do|does|are|were|is|was|would|will|can|could)\b`)

// asksList reports whether question asks for several things: a what or
// which question whose object is a plural noun.
func asksList(question string) bool {
	if asksNames(question) {
		return true
	}
	m := pluralRE.FindStringSubmatch(question)
	if m == nil {
		return false
	}
	w := strings.ToLower(m[2])
	if m[1] != "" && (embedding.StopWord(strings.ToLower(m[1])) || auxiliaries[strings.ToLower(m[1])]) {
		return false // "What does Melanie …": no object before the verb
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
		!embedding.StopWord(w) && !auxiliaries[w]
}

// moreSupport returns, for a question asking a list, up to listItems-1
// further sentences answering it from memory items other than first's,
// best first, each within typedMargin of first's score.
func (o *Provider) moreSupport(al aligner, w *weigher, question string, cands []rankedSentence, first rankedSentence, guess bool) []rankedSentence {
	names := askedNames(question)
	pool := namedPool(cands, names, guess)
	ranked := make([]rankedSentence, len(pool))
	copy(ranked, pool)
	for i := range ranked {
		ranked[i].score = o.rankScore(al, w, question, names, ranked[i].text)
	}
	byAskedTime(question, ranked)
	ranked = aboveFloor(ranked, o.cfg.AnswerFloor)
	if guess {
		byPrior(ranked)
	} else {
		sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	}
	used := map[string]bool{first.id: true}
	var out []rankedSentence
	for _, c := range ranked {
		if len(out) >= listItems-1 {
			break
		}
		if c.id == "" || used[c.id] || c.score < max(o.cfg.AnswerFloor, typedMargin*first.score) {
			continue
		}
		if strings.HasSuffix(strings.TrimSpace(c.text), "?") {
			continue // a question asks for an item; it gives none
		}
		if _, text := speakerLabel(c.text); asksName(question) && !hasName(question, text) {
			continue // asked names, a turn that gives none adds nothing
		}
		used[c.id] = true
		out = append(out, c)
	}
	return out
}

// headRE is a what or which question's head: the words between the
// question word (and "kind of") and the verb ("Which puppet show did …").
var headRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?((?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(?:has|have|had|did|do|does|are|were|is|was|would|will|can|could)\b`)

// headWords are the lower-case words of question's head (headRE), none
// when it has none.
func headWords(question string) []string {
	m := headRE.FindStringSubmatch(question)
	if m == nil {
		return nil
	}
	var out []string
	for _, w := range strings.Fields(strings.ToLower(m[1])) {
		if !embedding.StopWord(w) && !auxiliaries[w] {
			out = append(out, w)
		}
	}
	return out
}
