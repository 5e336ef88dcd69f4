package offline

import (
	"regexp"
	"strings"

	"github.com/cmem/cmem/embedding"
)

// listItems is how many items a question asking for several things
// ("What books has John read?") gathers, from as many memory items.
const listItems = 3

// pluralRE catches "what/which [kind(s) of] [ADJ] NOUN…": the question
// may ask for several things, which a conversation tells one turn at a
// time.
var pluralRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?([a-z-]+)(?:\s+([a-z-]+))?`)

// asksList reports whether question asks for several things: a what or
// which question whose object (its first or second word) is a plural
// noun.
func asksList(question string) bool {
	m := pluralRE.FindStringSubmatch(question)
	if m == nil {
		return false
	}
	for _, w := range m[1:] {
		w = strings.ToLower(w)
		if embedding.StopWord(w) || auxiliaries[w] {
			return false // "What does …", "What was …": the object comes later
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
			return true
		}
	}
	return false
}

// moreSupport returns, for a question asking a list, up to listItems-1
// further sentences answering it from memory items other than first's,
// best first, each within typedMargin of first's score.
func (o *Provider) moreSupport(al aligner, question string, cands []rankedSentence, first rankedSentence, guess bool) []rankedSentence {
	names := askedNames(question)
	pool := namedPool(cands, names, guess)
	ranked := make([]rankedSentence, len(pool))
	copy(ranked, pool)
	for i := range ranked {
		ranked[i].score = o.sentenceScore(al, question, names, ranked[i].text)
	}
	ranked = aboveFloor(ranked, o.cfg.AnswerFloor)
	byPrior(ranked)
	used := map[string]bool{first.id: true}
	var out []rankedSentence
	for _, c := range ranked {
		if len(out) >= listItems-1 {
			break
		}
		if c.id == "" || used[c.id] || c.score < max(o.cfg.AnswerFloor, typedMargin*first.score) {
			continue
		}
		used[c.id] = true
		out = append(out, c)
	}
	return out
}
