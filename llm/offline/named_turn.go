package offline

// A question naming someone or something ("When did Ann mention the
// Blue Lagoon?") selects the sentences that name it (namedPool). In a
// chat the sentence naming it often says nothing else ("It's the Blue
// Lagoon!", "Have you been to the Blue Lagoon?") and the turn goes on
// without naming it again ("Planning a trip there next month."). When no
// sentence naming it aligns with the question at all, the other
// sentences of their turns are read too.

// silent reports whether no ranked sentence aligns with the question.
func silent(ranked []rankedSentence) bool {
	for _, r := range ranked {
		if r.score > 0 {
			return false
		}
	}
	return true
}

// namedTurns is pool with the other sentences of its sentences' memory
// items (turns), in cands' order.
func namedTurns(pool, cands []rankedSentence) []rankedSentence {
	ids := map[string]bool{}
	for _, p := range pool {
		if p.id != "" {
			ids[p.id] = true
		}
	}
	var out []rankedSentence
	for _, c := range cands {
		if ids[c.id] {
			out = append(out, c)
		}
	}
	return out
}
