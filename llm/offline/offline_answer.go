package offline

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// Answer runs one agent turn without generation.
//
// Memory answers when one of its items covers the subquery, and then no
// tool is called. With an aligning embedder (the default) an item covers
// the subquery by the precise rule of covers: same subject, same
// qualifiers, same attribute, same kind of answer, and a value that says
// something; among covering items the one whose key aligns best with the
// subquery answers. With another embedder an item covers when its view
// Score reaches req.Coverage (MemoryCoverage when that is zero). A
// coverage above 1 never lets memory alone answer, with any embedder.
//
// Otherwise, with MaxToolCalls > 0, it calls tools through req.Call: a
// tool with an "expression" argument first when the subquery holds an
// arithmetic expression, then the others by cosine similarity of the
// subquery to their description and name. Arguments are built from each
// tool's JSON Schema (see toolArgs); a tool whose required arguments
// cannot be built is skipped. It stops after the first call that
// succeeds, or after MaxToolCalls calls.
//
// The response answers and cites (see span and extractive): for each
// question of the subquery, the best supporting sentence of memory values
// and successful tool results, cut to the span that answers the kind of
// question asked (a date, a name, a number, a place, yes/no, or the
// sentence). Result.Cited lists the memory items the response was drawn
// from. When nothing supports an answer, the response says nothing was
// found. SystemPrompt is not used offline.
func (o *Provider) Answer(ctx context.Context, req llm.AnswerRequest) (llm.AnswerResult, error) {
	if err := ctx.Err(); err != nil {
		return llm.AnswerResult{}, fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	if req.Facts {
		if r, ok := composeAnswer(req.Subquery, req.Memory); ok { // one current clause per part asked (compose.go)
			return r, nil
		}
	}
	coverage := req.Coverage
	if coverage <= 0 {
		coverage = o.cfg.MemoryCoverage
	}
	if resp, cited, ok := o.fromMemory(req.Subquery, req.Memory, coverage); ok {
		return llm.AnswerResult{Response: resp, Cited: cited}, nil
	}
	calls, err := o.callTools(ctx, req)
	if err != nil {
		return llm.AnswerResult{}, err
	}
	var texts []source
	for _, m := range req.Memory {
		texts = append(texts, source{text: m.Value, id: m.ID, at: m.ObservedAt, score: m.Score})
	}
	for _, c := range calls {
		if c.Err == nil {
			texts = append(texts, source{text: c.Result, tool: true})
		}
	}
	// With no tool to ask, memory is all there is: its best sentence is
	// offered even below AnswerFloor, marked tentative.
	guess := len(req.Tools) == 0 || req.MaxToolCalls <= 0 || req.Call == nil
	resp, ex, err := o.extractive(ctx, req.Subquery, texts, guess)
	if err != nil {
		return llm.AnswerResult{}, err
	}
	if req.Facts && len(calls) == 0 {
		if facts, ok := factsFromSupport(req.Subquery, ex.support); ok { // whole statements, not a span (compose_fallback.go)
			resp = facts
		}
	}
	return llm.AnswerResult{Response: resp, Calls: calls, Cited: ex.cited, Tentative: !ex.sure, Support: strings.Join(ex.support, " ")}, nil
}

// source is a text an answer may quote: a memory item's value (id) or a
// tool result.
type source struct {
	text string
	id   string
	tool bool
	at   time.Time // when it was observed; zero for a tool result
	// score is the memory view's score of the item (0 for a tool
	// result); see retrievalPrior.
	score float32
}

// fromMemory answers from the memory item that covers subquery, if any
// (see Answer), with its span and its id as citation.
func (o *Provider) fromMemory(subquery string, items []llm.MemoryItem, coverage float32) (string, []string, bool) {
	al, aligns := o.cfg.Embedder.(aligner)
	if coverage > 1 {
		return "", nil, false // configured never to answer from memory alone
	}
	var best []llm.MemoryItem
	for _, m := range items {
		if llm.SaysNothing(m.Value) {
			continue // a remembered failure answers nothing
		}
		if aligns {
			if !o.covers(subquery, m.Key, m.Value) {
				continue
			}
			m.Score = al.Align(subquery, m.Key)
		} else if m.Score < coverage {
			continue
		}
		best = append(best, m)
	}
	if len(best) == 0 {
		return "", nil, false
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].Score > best[j].Score })
	if !aligns {
		// Without word alignment nothing tells which span answers: the
		// covering values, best first, as remembered.
		seen := map[string]bool{}
		var vals, cited []string
		for _, m := range best {
			v := strings.TrimSpace(m.Value)
			if k := sentenceKey(v); !seen[k] && len(vals) < o.cfg.MaxSentences {
				seen[k] = true
				vals, cited = append(vals, v), append(cited, m.ID)
			}
		}
		return strings.Join(vals, "\n"), cited, true
	}
	m := best[0]
	text := strings.TrimSpace(m.Value)
	if sents := sentences(text); len(sents) > 1 {
		text = o.bestSentence(subquery, sents)
	}
	return span(subquery, text, m.ObservedAt), []string{m.ID}, true
}

// bestSentence is the sentence of sents that aligns best with question
// (ties: the first).
func (o *Provider) bestSentence(question string, sents []string) string {
	al, _ := o.cfg.Embedder.(aligner)
	names := namesOf(question)
	best, bestScore := sents[0], float32(-1)
	for _, s := range sents {
		if sc := o.sentenceScore(al, question, names, s); sc > bestScore {
			best, bestScore = s, sc
		}
	}
	return best
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
	id    string
	at    time.Time
	// view is the memory view's score of the item the sentence is from.
	view float32
}

// extraction is what an extractive answer rests on: the memory items
// cited, the supporting sentences, and whether every answer's sentence
// states what its question asks (states).
type extraction struct {
	cited, support []string
	sure           bool
}

// extractive answers each question of subquery from the sentences of
// texts (see Answer and span).
func (o *Provider) extractive(ctx context.Context, subquery string, texts []source, guess bool) (string, extraction, error) {
	var ex extraction
	var cands []rankedSentence
	seen := map[string]bool{}
	for _, t := range texts {
		if llm.SaysNothing(t.text) {
			continue
		}
		speaker := ""
		for _, s := range sentences(t.text) {
			s = dropRef(s)
			// Every sentence of a turn is its speaker's.
			if who, _ := speakerLabel(s); who != "" {
				speaker = who
			} else if speaker != "" {
				s = speaker + ": " + s
			}
			if k := sentenceKey(s); k != "" && !seen[k] {
				seen[k] = true
				cands = append(cands, rankedSentence{text: s, pos: len(cands), tool: t.tool, id: t.id, at: t.at, view: t.score})
			}
		}
	}
	if len(cands) == 0 {
		return noInformation(subquery), ex, nil
	}
	al, aligns := o.cfg.Embedder.(aligner)
	if !aligns {
		resp, err := o.extractiveCosine(ctx, subquery, cands)
		ex.sure = true
		return resp, ex, err
	}
	questions := questionsOf(subquery)
	speakers := speakersOf(cands)
	var w *weigher
	if guess {
		w = o.newWeigher(cands)
	}
	var answers []string
	done := map[string]bool{}
	ex.sure = true
	for _, q := range questions {
		c, ok := o.support(al, w, q, cands, guess)
		if !ok {
			continue
		}
		c = o.answeredQuestion(al, w, q, c, cands)
		if !addsTheKind(al, q, c.text) {
			c = answeringNeighbour(q, c, cands)
		}
		c = o.continuedTurn(al, w, q, c, cands)
		c = feltAbout(q, c, cands)
		c = shownInTurn(q, c, cands)
		ex.sure = ex.sure && c.score >= o.cfg.AnswerFloor && o.states(q, c.text)
		if !slices.Contains(ex.support, c.text) {
			ex.support = append(ex.support, c.text)
		}
		group := []rankedSentence{c}
		if asksList(q) {
			group = append(group, o.moreSupport(al, w, q, cands, c, guess)...)
		}
		var parts []string
		for _, c := range group {
			a := span(q, o.clause(al, w, q, c.text), c.at)
			if n, ok := largestCount(q, cands); ok {
				a = n // a total told in parts (most_counted.go)
			}
			if answerKind(q) == kindWhat && !asksList(q) && !asksName(q) {
				if word, ok := addedOfKind(al, q, c.text); ok && !capitalised(word) {
					a = word // the one thing it adds, of the kind asked (neighbour_kind.go); a name may be longer
				}
			}
			if answerKind(q) == kindYesNo {
				if alt, ok := o.choose(al, q, turnOf(c, cands)); ok {
					a = alt // asked to choose, not to confirm
				}
			}
			if asksList(q) && !asksName(q) {
				a = o.listItem(al, w, q, speakers, c)
			}
			if k := answerKind(q); !typedKinds[k] && k != kindYesNo && !asksName(q) && len(askedNames(q)) > 0 {
				a = withoutSpeaker(a) // said of the one asked about (subject.go)
			}
			if !done[a] {
				done[a] = true
				parts = append(parts, a)
			}
			if c.id != "" && !slices.Contains(ex.cited, c.id) {
				ex.cited = append(ex.cited, c.id)
			}
		}
		if len(parts) > 1 {
			for i := range parts {
				parts[i] = strings.TrimRight(parts[i], ".!?")
			}
		}
		if len(parts) > 0 {
			answers = append(answers, strings.Join(parts, ", "))
		}
	}
	if len(answers) == 0 {
		return noInformation(subquery), extraction{}, nil
	}
	return strings.Join(answers, " "), ex, nil
}

// states reports whether sentence states what question asks: the
// question's names and qualifiers are in it and each of its attribute
// words is matched there (as in covers).
func (o *Provider) states(question, sentence string) bool {
	q, f := facetsOf(question), facetsOf(sentence)
	for _, n := range q.names {
		if !f.has(n) {
			return false
		}
	}
	for _, x := range q.quals {
		if !f.all[x] {
			return false
		}
	}
	for _, w := range q.attrs {
		if !o.matchWord(w, f.attrs) {
			return false
		}
	}
	return true
}

// longSentence is the length in words above which an answer to a what,
// which, how or why question is the sentence's best clause, not all of it.
const longSentence = 12

// clauseRE cuts a sentence into clauses; a comma or colon cuts only
// before a space, never inside a value ("1:30 PM", "88,000 EUR").
var clauseRE = regexp.MustCompile(`\s*(?:[;—–]|[,:](?:\s|$)|\s-\s|\s(?:but|because|so|and then)\s)\s*`)

// clause returns, for a question not asking a typed span or yes/no, the
// clause of a speaker's turn or of a long sentence (more than
// longSentence words) — conversation rather than a stated fact — that
// aligns best with the question's content, less the words the question
// already says (withoutAsked), with its speaker's label; other sentences
// whole.
func (o *Provider) clause(al aligner, w *weigher, question, sentence string) string {
	kind := answerKind(question)
	speaker, text := speakerLabel(sentence)
	if typedKinds[kind] || kind == kindYesNo || asksName(question) || speaker == "" && len(strings.Fields(sentence)) <= longSentence {
		return sentence
	}
	if t, ok := quotedTitle(question, text); ok {
		return t // a title the question asks for is the answer whole
	}
	text = dropOpener(text)
	if obj, ok := captionObject(text); ok {
		if captionAnswers(question, text) || asksWhatShown(question) {
			return obj // what a shared image shows, not the words about sharing it
		}
		text = obj // the words about sharing it answer nothing
	}
	names := namesOf(question)
	best, bestScore := text, float32(-1)
	adds := false // the best adds to what the question says
	ex := excluded(question)
	for _, c := range clauseRE.Split(text, -1) {
		if len(contentWords(c)) < 2 || saysExcluded(ex, c) {
			continue // too short, or what the question already rules out
		}
		// A clause that adds what was asked beats one that only
		// restates the question ("Got the tattoo a few years ago, it
		// stands for freedom" to "What does the tattoo symbolize?").
		novel := novelWords(question, c) >= restatesMin
		if sc := o.rankScore(al, w, question, names, c); novel && !adds || novel == adds && sc > bestScore {
			best, bestScore, adds = strings.TrimSpace(c), sc, novel
		}
	}
	best = withoutAsked(question, best)
	if speaker != "" {
		return speaker + ": " + best
	}
	return best
}

// withoutAsked drops from a clause the words the question already says
// (by stem) and the stop words around what is left: what the clause adds
// is the answer ("raising awareness for mental health" to "What did the
// race raise awareness for?" is "mental health"). The clause is kept
// whole when fewer than two words would be left.
func withoutAsked(question, clause string) string {
	asked := map[string]bool{}
	for _, w := range words(question) {
		asked[stem(w.lower)] = true
	}
	head := map[string]bool{}
	for _, h := range headWords(question) {
		// "Which show …": the kind asked for is part of the answer ("a
		// puppet show"), though the question says it.
		delete(asked, stem(h))
		delete(asked, h)
		head[h] = true
	}
	ws := strings.Fields(clause)
	keep := make([]bool, len(ws))
	first, last := -1, -1
	for i, f := range ws {
		l := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if l == "" || asked[stem(l)] || asked[l] {
			continue
		}
		keep[i] = true
		// A word of time ("last week", "Monday") sets when, not what:
		// it neither starts nor ends what is kept (a name such as
		// "Pride Month" still does).
		when := calendarWords[l] || timeWords[l] && !capitalised(strings.TrimLeft(f, `"'(`))
		if !embedding.StopWord(l) && !notNames[l] && !when || head[l] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 || last-first < 1 {
		return clause
	}
	var out []string
	for i := first; i <= last; i++ {
		if keep[i] {
			out = append(out, ws[i])
		}
	}
	return strings.TrimRight(strings.Join(out, " "), ",;:")
}

// questionsOf splits a subquery into the questions it asks: its
// sentences, a sentence of fewer than three content words ("(science).",
// "Thanks!") joined to the one before it (or after it, when first).
func questionsOf(subquery string) []string {
	var out []string
	pending := ""
	for _, s := range sentences(subquery) {
		switch {
		case len(contentWords(s)) >= 3 || strings.Contains(s, "?") && len(contentWords(s)) > 0:
			out = append(out, strings.TrimSpace(pending+" "+s))
			pending = ""
		case len(out) > 0:
			out[len(out)-1] += " " + s
		default:
			pending = strings.TrimSpace(pending + " " + s)
		}
	}
	if pending != "" || len(out) == 0 {
		out = append(out, strings.TrimSpace(pending))
	}
	return out
}

// support is the candidate sentence that best answers question: among
// those naming every name of the question (when any does), the best
// aligned with the question (sentenceScore), at least AnswerFloor; for a
// question asking a date, a name, a place or a number, the best of those
// within typedMargin of the best that holds such a span (a sentence about
// the subject that does not hold the kind of answer asked is not the
// answer). When none reaches AnswerFloor, a tool that answered in a
// sentence or two (about the question's names, if it has any, or about
// no one) answered directly (a forecast, a computation), whatever words it
// used; with guess (no tool to ask: memory is all there is), the best
// sentence does, and the answer is tentative.
func (o *Provider) support(al aligner, w *weigher, question string, cands []rankedSentence, guess bool) (rankedSentence, bool) {
	names := askedNames(question)
	// A sentence about another subject does not answer: with none about
	// this one, only a direct tool answer may (or, with guess, the
	// nearest; see namedPool).
	pool := namedPool(cands, names, guess)
	ranked := make([]rankedSentence, len(pool))
	copy(ranked, pool)
	for i := range ranked {
		ranked[i].score = o.rankScore(al, w, question, names, ranked[i].text)
	}
	if guess && silent(ranked) {
		// Every sentence naming what was asked says nothing more: the
		// rest of their turns may (named_turn.go).
		if wider := namedTurns(pool, cands); len(wider) > len(pool) {
			pool = wider
			ranked = make([]rankedSentence, len(pool))
			copy(ranked, pool)
			for i := range ranked {
				ranked[i].score = o.rankScore(al, w, question, names, ranked[i].text)
			}
		}
	}
	if guess {
		o.byReplies(al, w, question, names, ranked, cands)
	}
	byAskedTime(question, ranked)
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	floor := o.cfg.AnswerFloor
	if guess && len(ranked) > 0 && ranked[0].score > 0 {
		// Memory is all there is: any sentence that aligns at all may
		// answer, tentatively.
		floor = math.SmallestNonzeroFloat32
	}
	if len(ranked) > 0 && ranked[0].score >= floor {
		ranked = aboveFloor(ranked, floor)
		if guess {
			// Memory is all there is: among the sentences that may
			// answer, the view's ranking counts too (byPrior). With a
			// tool to ask, a sentence must answer by what it says, or
			// the tool is asked.
			byPrior(ranked)
		}
		if kind := answerKind(question); typedKinds[kind] || asksName(question) {
			if c, ok := saysHowOften(question, ranked, max(floor, typedMargin*ranked[0].score)); ok {
				return c, true
			}
			if kind == kindWhen {
				// A sentence that says when beats one that only was said
				// on a day.
				for _, c := range ranked {
					if c.score >= max(floor, typedMargin*ranked[0].score) && saysWhen(c.text, c.at) {
						return c, true
					}
				}
			}
			for _, c := range ranked {
				if c.score < max(floor, typedMargin*ranked[0].score) {
					continue // ranked by prior too: a later one may reach it
				}
				if _, ok := typedSpan(kind, question, c.text, c.at); ok {
					return c, true
				}
			}
		}
		return ranked[0], true
	}
	if guess && len(ranked) > 0 && ranked[0].score > 0 {
		return ranked[0], true
	}
	if guess && len(names) > 0 && len(pool) > 0 && len(pool) < len(cands) {
		// Memory is all there is and a sentence names what was asked,
		// saying nothing more ("It's Orvo Talvik!"): it is the nearest
		// there is, tentatively.
		return pool[0], true
	}
	var direct []rankedSentence
	for _, c := range pool {
		if c.tool {
			direct = append(direct, c)
		}
	}
	if len(direct) == 0 {
		for _, c := range cands {
			if c.tool && len(namesOf(c.text)) == 0 {
				direct = append(direct, c) // a figure, about no one else
			}
		}
	}
	if len(direct) > 0 && len(direct) <= o.cfg.MaxSentences {
		return rankedSentence{text: joinBest(direct, o.cfg.MaxSentences), tool: true}, true
	}
	return rankedSentence{}, false
}

// rankScore is sentenceScore, or with a weigher (memory is all there is)
// its blend with the weighted coverage of the question (see weigher).
func (o *Provider) rankScore(al aligner, w *weigher, question string, names []string, sentence string) float32 {
	a := o.sentenceScore(al, question, names, sentence)
	if w == nil || a == 0 {
		return a
	}
	score := alignShare*a + (1-alignShare)*w.coverage(question, names, sentence)
	if _, text := speakerLabel(sentence); strings.HasPrefix(text, "[") && strings.HasSuffix(strings.TrimRight(text, ".!? "), "]") {
		// A note in brackets (a shared image's description) tells what
		// was shown, rarely what the question asks of what was said.
		if !captionAnswers(question, text) {
			score *= asideWeight
		}
	}
	if k := answerKind(question); !typedKinds[k] && k != kindYesNo {
		// What the question does not say yet is the answer: of two
		// sentences about it, the one that adds more.
		score += noveltyBonus * float32(min(novelWords(question, sentence), noveltyCap)) / noveltyCap
	}
	return score
}

// noveltyBonus is the most rankScore adds for what a sentence adds to a
// what, why or how question: noveltyCap new content words or more.
const noveltyBonus = 0.1

const noveltyCap = 4

// asideWeight scales rankScore for a sentence wholly in brackets.
const asideWeight = 0.5

// alignShare is how much alignment counts beside weighted coverage in
// rankScore.
const alignShare = 0.3

// typedMargin: a sentence holding the kind of answer asked is preferred to
// a better aligned one without it if it scores at least this share of the
// best.
const typedMargin = 0.6

// sentenceScore is how well sentence answers question on content: the
// alignment of the question without its names with the sentence without
// its speaker's label and those names. The names only select sentences
// (support), so that neither a speaker's name nor a greeting that names
// someone ("Wow, Caroline!") outranks what is said; a sentence with fewer
// than two content words besides them says too little to answer. A
// question that is only names aligns whole.
func (o *Provider) sentenceScore(al aligner, question string, names []string, sentence string) float32 {
	_, text := speakerLabel(sentence)
	content := question
	for _, n := range names {
		content = replaceFold(content, n)
		text = replaceFold(text, n)
	}
	if !saysMoreThanWhen(content) {
		return al.Align(question, sentence)
	}
	if len(contentWords(text)) < 2 {
		return 0
	}
	return al.Align(content, text)
}

// replaceFold replaces every case-insensitive occurrence of old (a
// lower-case name, words separated by one space) in s by a space.
func replaceFold(s, old string) string {
	re := regexp.MustCompile(`(?i)\b` + strings.ReplaceAll(regexp.QuoteMeta(old), " ", `\s+`) + `(?:'s)?\b`)
	return re.ReplaceAllString(s, " ")
}

// extractiveCosine ranks sentences by cosine similarity to the subquery,
// for an embedder that does not align: every sentence that shares
// anything with it, at most MaxSentences, else the first tool sentences.
func (o *Provider) extractiveCosine(ctx context.Context, subquery string, cands []rankedSentence) (string, error) {
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
