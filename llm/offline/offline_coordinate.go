package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// Coordinate picks the next agent. It stops when MaxRounds (if > 0) is
// reached (Round > MaxRounds, or as many turns as MaxRounds taken), when
// every offered agent has already served this query, when the query has
// no content words, when nothing of the query is still open, or when no
// unused agent scores RouteThreshold. A sentence of the query is open
// until a turn whose subquery held it answered with something other than
// a no-information reply; the lexical rule of earlier versions also still
// closes the query (the responses contain StopCoverage of its content
// words).
//
// An agent's score for a text is the cosine similarity of the two
// embeddings (its description plus the words of its id) raised towards
// its Reach: max(desc, (1−ReachWeight)·max(desc,0) + ReachWeight·Reach), so an
// agent described in general words but holding the answer is still
// chosen, and what it holds never lowers a good description. Each open
// sentence belongs to the unused agent that scores best for it; an
// agent's score is the best of its score for the whole open part and for
// the sentences that are its own. The best agent is picked (ties: the
// earlier offered) with its own sentences as subquery, so a multi-part
// question is split across agents by their descriptions, one agent per
// round. SystemPrompt and History are not used offline.
func (o *Provider) Coordinate(ctx context.Context, req llm.CoordinateRequest) (llm.Decision, error) {
	if err := ctx.Err(); err != nil {
		return llm.Decision{}, fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	stop := llm.Decision{Stop: true}
	if req.RoundsExhausted() {
		return stop, nil
	}
	used := map[string]bool{}
	for _, t := range req.Turns {
		used[t.Agent] = true
	}
	var cands []llm.AgentCard
	for _, a := range req.Agents {
		if a.ID != "" && !used[a.ID] {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 || len(contentWords(req.Query)) == 0 || o.lexicallyCovered(req) {
		return stop, nil
	}
	open := openSentences(req.Query, req.Turns)
	if len(open) == 0 {
		return stop, nil
	}
	// Texts: the open part as a whole, each open sentence, each candidate.
	texts := append([]string{strings.Join(open, " ")}, open...)
	for _, a := range cands {
		texts = append(texts, a.Description+" "+idWords(a.ID))
	}
	vecs, err := o.embed(ctx, texts...)
	if err != nil {
		return llm.Decision{}, err
	}
	agentVec := func(i int) []float32 { return vecs[1+len(open)+i] }
	score := func(text []float32, i int) float32 {
		desc := embedding.Cosine(text, agentVec(i))
		// A description that is merely unrelated (a cosine under 0 is
		// noise: the words of a generated id, say) does not pull an agent
		// that holds the answer below one described in no words at all.
		return max(desc, (1-o.cfg.ReachWeight)*max(desc, 0)+o.cfg.ReachWeight*cands[i].Reach)
	}
	// sentenceBest[j] is the candidate that scores best for open sentence
	// j: the sentence is that agent's to answer.
	sentenceBest := make([]int, len(open))
	best, bestScore := -1, float32(0)
	for j := range open {
		top := float32(-2)
		for i := range cands {
			if s := score(vecs[1+j], i); s > top {
				sentenceBest[j], top = i, s
			}
		}
	}
	for i := range cands {
		s := score(vecs[0], i)
		for j := range open {
			if len(open) > 1 && sentenceBest[j] == i {
				s = max(s, score(vecs[1+j], i))
			}
		}
		if best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	if bestScore < o.cfg.RouteThreshold {
		return stop, nil
	}
	return llm.Decision{Agent: cands[best].ID, Subquery: o.subquery(open, sentenceBest, best, func(j int) float32 { return score(vecs[1+j], best) })}, nil
}

// lexicallyCovered: after a turn, the responses so far contain at least
// StopCoverage of the query's content words.
func (o *Provider) lexicallyCovered(req llm.CoordinateRequest) bool {
	if len(req.Turns) == 0 {
		return false
	}
	var responses []string
	for _, t := range req.Turns {
		responses = append(responses, t.Response)
	}
	covered := map[string]bool{}
	for _, w := range contentWords(strings.Join(responses, "\n")) {
		covered[w] = true
	}
	words := contentWords(req.Query)
	n := 0
	for _, w := range words {
		if covered[w] {
			n++
		}
	}
	return float64(n) >= o.cfg.StopCoverage*float64(len(words))
}

// openSentences are the query's sentences no turn has answered yet: a turn
// answers the sentences its subquery holds (all of them when its subquery
// is the whole query) unless its response is empty or says nothing was
// found.
func openSentences(query string, turns []llm.Turn) []string {
	sents := sentences(query)
	if len(sents) == 0 {
		return nil
	}
	var open []string
	for _, s := range sents {
		answered := false
		for _, t := range turns {
			sub := llm.Squash(t.Subquery)
			if answers(t.Response) && (strings.Contains(sub, llm.Squash(s)) || sub == llm.Squash(query)) {
				answered = true
				break
			}
		}
		if !answered {
			open = append(open, s)
		}
	}
	return open
}

// answers reports whether a response says something: not blank, not the
// offline provider's no-information reply.
func answers(response string) bool {
	r := strings.TrimSpace(response)
	return r != "" && !strings.HasPrefix(r, noInformationPrefix)
}

// subquery is the open sentences that are the chosen agent's: those it
// scores best for among the candidates; else those it reaches
// RouteThreshold on; else all of them. A multi-part question is so split
// across the agents whose specializations its parts concern, one part
// per round, and a turn closes only the sentences it was asked.
func (o *Provider) subquery(open []string, sentenceBest []int, chosen int, score func(j int) float32) string {
	var mine, near []string
	for j, s := range open {
		if sentenceBest[j] == chosen {
			mine = append(mine, s)
		}
		if score(j) >= o.cfg.RouteThreshold {
			near = append(near, s)
		}
	}
	switch {
	case len(open) < 2:
		return llm.Squash(strings.Join(open, " "))
	case len(mine) > 0:
		return llm.Squash(strings.Join(mine, " "))
	case len(near) > 0:
		return llm.Squash(strings.Join(near, " "))
	}
	return llm.Squash(strings.Join(open, " "))
}
