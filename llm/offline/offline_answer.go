package offline

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// Answer runs one agent turn without generation.
//
// When the best memory item's relevance reaches req.Coverage
// (MemoryCoverage when that is zero), memory answers: the values of the
// items at or above it, best first, at most MaxSentences of them, and no
// tool is called. An item's relevance is the alignment of the subquery
// with its key when the embedder aligns (so a remembered answer about
// the same subject but another attribute does not count), else its view
// Score.
//
// Otherwise, with MaxToolCalls > 0, it calls tools through req.Call: a
// tool with an "expression" argument first when the subquery holds an
// arithmetic expression, then the others by cosine similarity of the
// subquery to their description and name. Arguments are built from each
// tool's JSON Schema (see toolArgs); a tool whose required arguments
// cannot be built is skipped. It stops after the first call that
// succeeds, or after MaxToolCalls calls.
//
// The response is extractive: the sentences of memory values and
// successful tool results most relevant to the subquery (at most
// MaxSentences, in their original order). With an aligning embedder a
// sentence must align at least AnswerFloor and be within 80% of the best
// one, so unrelated sentences never pad an answer; when none does, tool
// results of at most MaxSentences sentences in all are given whole (a
// direct answer such as a computation), and otherwise the response says
// nothing was found. With another embedder a sentence must
// share anything with the subquery, and when none does the first
// sentences of the tool results are given. SystemPrompt is not used
// offline.
func (o *Provider) Answer(ctx context.Context, req llm.AnswerRequest) (llm.AnswerResult, error) {
	if err := ctx.Err(); err != nil {
		return llm.AnswerResult{}, fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	coverage := req.Coverage
	if coverage <= 0 {
		coverage = o.cfg.MemoryCoverage
	}
	if resp, ok := o.fromMemory(req.Subquery, req.Memory, coverage); ok {
		return llm.AnswerResult{Response: resp}, nil
	}
	calls, err := o.callTools(ctx, req)
	if err != nil {
		return llm.AnswerResult{}, err
	}
	var memText, toolText []string
	for _, m := range req.Memory {
		memText = append(memText, m.Value)
	}
	for _, c := range calls {
		if c.Err == nil {
			toolText = append(toolText, c.Result)
		}
	}
	resp, err := o.extractive(ctx, req.Subquery, memText, toolText)
	if err != nil {
		return llm.AnswerResult{}, err
	}
	return llm.AnswerResult{Response: resp, Calls: calls}, nil
}

func (o *Provider) fromMemory(subquery string, items []llm.MemoryItem, coverage float32) (string, bool) {
	var best []llm.MemoryItem
	for _, m := range items {
		if al, ok := o.cfg.Embedder.(aligner); ok {
			m.Score = al.Align(subquery, m.Key)
		}
		if m.Score >= coverage && strings.TrimSpace(m.Value) != "" {
			best = append(best, m)
		}
	}
	if len(best) == 0 {
		return "", false
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].Score > best[j].Score })
	seen := map[string]bool{}
	var vals []string
	for _, m := range best {
		v := strings.TrimSpace(m.Value)
		if k := sentenceKey(v); !seen[k] && len(vals) < o.cfg.MaxSentences {
			seen[k] = true
			vals = append(vals, v)
		}
	}
	return strings.Join(vals, "\n"), true
}

func (o *Provider) callTools(ctx context.Context, req llm.AnswerRequest) ([]llm.ToolCall, error) {
	if req.MaxToolCalls <= 0 || req.Call == nil || len(req.Tools) == 0 {
		return nil, nil
	}
	order, err := o.rankTools(ctx, req.Subquery, req.Tools)
	if err != nil {
		return nil, err
	}
	var calls []llm.ToolCall
	for _, t := range order {
		if len(calls) >= req.MaxToolCalls {
			break
		}
		args, ok := toolArgs(t.Parameters, req.Subquery)
		if !ok {
			continue
		}
		res, err := req.Call(ctx, t.Name, args)
		calls = append(calls, llm.ToolCall{Tool: t.Name, Arguments: args, Result: res, Err: err})
		if ctx.Err() != nil {
			return calls, fmt.Errorf("%w: %w", llm.ErrProvider, ctx.Err())
		}
		if err == nil {
			break
		}
	}
	return calls, nil
}

// rankTools orders tools for the subquery: expression tools first when it
// holds arithmetic, then by similarity (ties: offered order).
func (o *Provider) rankTools(ctx context.Context, subquery string, tools []llm.Tool) ([]llm.Tool, error) {
	texts := []string{subquery}
	for _, t := range tools {
		texts = append(texts, t.Description+" "+idWords(t.Name))
	}
	vecs, err := o.embed(ctx, texts...)
	if err != nil {
		return nil, err
	}
	_, hasExpr := arithmetic(subquery)
	type scored struct {
		tool  llm.Tool
		expr  bool
		score float32
	}
	s := make([]scored, len(tools))
	for i, t := range tools {
		s[i] = scored{t, hasExpr && hasProperty(t.Parameters, "expression"), embedding.Cosine(vecs[0], vecs[i+1])}
	}
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].expr != s[j].expr {
			return s[i].expr
		}
		return s[i].score > s[j].score
	})
	out := make([]llm.Tool, len(s))
	for i := range s {
		out[i] = s[i].tool
	}
	return out, nil
}

type rankedSentence struct {
	text  string
	pos   int
	score float32
	tool  bool
}

// extractive picks the answer sentences (see Answer).
func (o *Provider) extractive(ctx context.Context, subquery string, memory, tools []string) (string, error) {
	var cands []rankedSentence
	seen := map[string]bool{}
	add := func(texts []string, tool bool) {
		for _, t := range texts {
			for _, s := range sentences(t) {
				s = dropRef(s)
				if k := sentenceKey(s); k != "" && !seen[k] {
					seen[k] = true
					cands = append(cands, rankedSentence{text: s, pos: len(cands), tool: tool})
				}
			}
		}
	}
	add(memory, false)
	add(tools, true)
	if len(cands) == 0 {
		return noInformation(subquery), nil
	}
	al, aligns := o.cfg.Embedder.(aligner)
	if aligns {
		var best float32
		for i := range cands {
			cands[i].score = al.Align(subquery, cands[i].text)
			best = max(best, cands[i].score)
		}
		floor := max(o.cfg.AnswerFloor, 0.9*best)
		var picked []rankedSentence
		for _, c := range cands {
			if c.score >= floor {
				picked = append(picked, c)
			}
		}
		if len(picked) == 0 {
			// A tool that answered in a few sentences answered directly (a
			// forecast, a computation), whatever words it used; longer
			// results are documents, and none of them is about this.
			for _, c := range cands {
				if c.tool {
					picked = append(picked, c)
				}
			}
			if len(picked) == 0 || len(picked) > o.cfg.MaxSentences {
				return noInformation(subquery), nil
			}
		}
		return joinBest(picked, o.cfg.MaxSentences), nil
	}
	texts := []string{subquery}
	for _, c := range cands {
		texts = append(texts, c.text)
	}
	vecs, err := o.embed(ctx, texts...)
	if err != nil {
		return "", err
	}
	var relevant []rankedSentence
	for i := range cands {
		cands[i].score = embedding.Cosine(vecs[0], vecs[i+1])
		if cands[i].score > 0 {
			relevant = append(relevant, cands[i])
		}
	}
	picked := relevant
	if len(picked) == 0 {
		for _, c := range cands {
			if c.tool && len(picked) < o.cfg.MaxSentences {
				picked = append(picked, c)
			}
		}
	}
	if len(picked) == 0 {
		return noInformation(subquery), nil
	}
	return joinBest(picked, o.cfg.MaxSentences), nil
}

// dropRef removes the "[id] " a knowledge base puts before each document:
// an answer quotes the sentence, and the call it came from is recorded
// with the step.
func dropRef(s string) string {
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "] "); i > 0 && !strings.ContainsAny(s[1:i], " []") {
			return strings.TrimSpace(s[i+2:])
		}
	}
	return s
}

// joinBest keeps the n best-scored sentences and joins them in their
// original order.
func joinBest(picked []rankedSentence, n int) string {
	sort.SliceStable(picked, func(i, j int) bool { return picked[i].score > picked[j].score })
	picked = picked[:min(len(picked), n)]
	sort.Slice(picked, func(i, j int) bool { return picked[i].pos < picked[j].pos })
	out := make([]string, len(picked))
	for i, p := range picked {
		out[i] = p.text
	}
	return strings.Join(out, " ")
}

// aligner is an embedder that scores how much of a query a text covers
// (semantic.Embedder.Align).
type aligner interface {
	Align(query, text string) float32
}

// noInformationPrefix starts the reply of a turn that found nothing; the
// coordinator keeps the question open after it.
const noInformationPrefix = "No information about "

func noInformation(subquery string) string {
	return fmt.Sprintf(noInformationPrefix+"%q was found in memory or in the available tools.", llm.Squash(subquery))
}
