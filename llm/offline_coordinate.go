package llm

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/embed"
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
// An agent's score for the open part of the query is the cosine
// similarity of the two embeddings (its description plus the words of its
// id) raised towards its Reach: max(desc, (1−ReachWeight)·desc +
// ReachWeight·Reach), so an agent described in general words but holding
// the answer is still chosen, and what it holds never lowers a good
// description. The best unused agent is picked (ties: the earlier
// offered), with the open sentences that concern it as subquery, or all of
// them when none stands out. SystemPrompt and History are not used
// offline.
func (o *Offline) Coordinate(ctx context.Context, req CoordinateRequest) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	stop := Decision{Stop: true}
	if roundsExhausted(req) {
		return stop, nil
	}
	used := map[string]bool{}
	for _, t := range req.Turns {
		used[t.Agent] = true
	}
	var cands []AgentCard
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
	uncovered := strings.Join(open, " ")
	texts := []string{uncovered}
	for _, a := range cands {
		texts = append(texts, a.Description+" "+idWords(a.ID))
	}
	vecs, err := o.embed(ctx, texts...)
	if err != nil {
		return Decision{}, err
	}
	best, bestScore := -1, float32(0)
	for i, a := range cands {
		desc := embed.Cosine(vecs[0], vecs[i+1])
		s := max(desc, (1-o.cfg.ReachWeight)*desc+o.cfg.ReachWeight*a.Reach)
		if best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	if bestScore < o.cfg.RouteThreshold {
		return stop, nil
	}
	sub, err := o.subquery(ctx, open, vecs[best+1])
	if err != nil {
		return Decision{}, err
	}
	return Decision{Agent: cands[best].ID, Subquery: sub}, nil
}

// lexicallyCovered: after a turn, the responses so far contain at least
// StopCoverage of the query's content words.
func (o *Offline) lexicallyCovered(req CoordinateRequest) bool {
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
func openSentences(query string, turns []Turn) []string {
	sents := sentences(query)
	if len(sents) == 0 {
		return nil
	}
	var open []string
	for _, s := range sents {
		answered := false
		for _, t := range turns {
			sub := squash(t.Subquery)
			if answers(t.Response) && (strings.Contains(sub, squash(s)) || sub == squash(query)) {
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

// subquery keeps the open sentences that reach RouteThreshold with the
// agent; all open sentences when there is one, or none reaches it.
func (o *Offline) subquery(ctx context.Context, open []string, agent []float32) (string, error) {
	if len(open) < 2 {
		return squash(strings.Join(open, " ")), nil
	}
	vecs, err := o.embed(ctx, open...)
	if err != nil {
		return "", err
	}
	var keep []string
	for i, s := range open {
		if embed.Cosine(vecs[i], agent) >= o.cfg.RouteThreshold {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		keep = open
	}
	return squash(strings.Join(keep, " ")), nil
}

// roundsExhausted: MaxRounds (if > 0) is reached when Round passes it or
// as many turns as MaxRounds were taken, whether callers count rounds
// from 0 or from 1.
func roundsExhausted(req CoordinateRequest) bool {
	return req.MaxRounds > 0 && (req.Round > req.MaxRounds || len(req.Turns) >= req.MaxRounds)
}
