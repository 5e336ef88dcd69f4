package app

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// Outcomes of a query as its user sees it.
const (
	// OutcomeAnswer: the answer rests on memory the user may read.
	OutcomeAnswer = "answer"
	// OutcomeAnswerRedacted: the answer rests on a scope the user reads
	// only as a redacted summary.
	OutcomeAnswerRedacted = "answer_redacted"
	// OutcomeRefuse: the answer exists but the user may no longer see it.
	OutcomeRefuse = "refuse"
	// OutcomeNoMemory: nothing the user may read answers the question.
	OutcomeNoMemory = "no_memory"
)

// NoMemoryAnswer is the text of a no_memory answer. It is the same whether
// nothing was ever said or what was said lies outside the user's
// permissions, so it never confirms that something exists.
const NoMemoryAnswer = "There is nothing in memory that I can share on this."

// withOutcome sets ans.Outcome from what cmem delivered and withheld. In a
// governed scope (docs/grants.md) an answer that called no tool keeps only
// its sentences memory supports (ground); one with none that rests on the
// memory the query read (the model said it found nothing, or only repeated
// the question) is no_memory, and its text and its steps' texts become
// NoMemoryAnswer: a question's own words are not memory, and repeating
// them back is no answer. Elsewhere the text stays the agent's and the
// outcome is no_memory only for a reply that says nothing.
func (a *App) withOutcome(ctx context.Context, ans QueryAnswer, question string) QueryAnswer {
	if ans.Status != "answered" {
		return ans
	}
	if ans.Withheld != "" || ans.Answer == events.Erased {
		// Withheld, or erased with what it derived from: the answer existed
		// and is not shown; its text stays what erasure left.
		ans.Outcome = OutcomeRefuse
		return ans
	}
	if len(ans.Steps) == 0 {
		// No agent was consulted: the answer is cmem's own (which of the
		// user's agents it considered), holding no memory.
		ans.Outcome = OutcomeNoMemory
		return ans
	}
	if !governedAnswer(ans) {
		// Outside governed scopes the outcome is read off the answer, whose
		// text stays the agent's: a short span ("7 May 2023") resolved from
		// a fragment need not repeat the fragment's words to rest on it.
		ans.Outcome = OutcomeAnswer
		if !usedTools(ans) && llm.SaysNothing(ans.Answer) {
			ans.Outcome = OutcomeNoMemory
		}
		return ans
	}
	if refusal := fixedRefusal(question); refusal != "" { // nothing was read for it (unproposed); the refusal says so (outcome_recover.go, outcome_pressed.go)
		ans.Outcome, ans.Answer = OutcomeRefuse, refusal
		for i := range ans.Steps {
			if ans.Steps[i].Withheld == "" {
				ans.Steps[i].Response = refusal
			}
		}
		return ans
	}
	var read, summaries []string
	if len(ans.FragmentsRead) > 0 && a.store != nil {
		fs, err := a.store.Get(ctx, ans.FragmentsRead)
		if err == nil {
			for _, f := range fs {
				read = append(read, f.Value)
				if summaryRead(f.Agents) {
					summaries = append(summaries, f.Value)
				}
			}
		}
	}
	var asked string
	if len(ans.Steps) > 0 {
		asked = ans.Steps[0].Subquery
	}
	kept, rests := ground(withoutNothingFound(ans.Answer), asked, read)
	var scopes []scopeInfo
	var vals []string
	if governedAnswer(ans) { // a governed scope never restates what the question proposes (outcome_probe.go)
		scopes = a.scopes()
		vals = append(proposedIn(question, scopes), proposedIn(asked, scopes)...)
	}
	if kept = withoutProposed(kept, vals); strings.TrimSpace(kept) == "" {
		rests = false
	}
	if !usedTools(ans) && !rests {
		ans.Outcome, ans.Answer = OutcomeNoMemory, NoMemoryAnswer
		for i := range ans.Steps {
			if ans.Steps[i].Withheld == "" && ans.Steps[i].Response != "" {
				ans.Steps[i].Response = NoMemoryAnswer
			}
		}
		return ans
	}
	if !usedTools(ans) {
		ans.Answer = kept
		for i, st := range ans.Steps {
			if st.Withheld == "" && st.Response != "" {
				ans.Steps[i].Response, _ = ground(withoutNothingFound(st.Response), st.Subquery, read)
				if governed(st.Agent) {
					ans.Steps[i].Response = withoutProposed(ans.Steps[i].Response, append(proposedIn(st.Subquery, scopes), vals...))
				}
			}
		}
	}
	ans.Outcome = OutcomeAnswer
	if usedTools(ans) {
		// What a tool returned is not judged against memory: a summary
		// reader's step makes the answer redacted.
		for _, s := range ans.Steps {
			if summaryRead([]string{s.Agent}) {
				ans.Outcome = OutcomeAnswerRedacted
			}
		}
		return ans
	}
	if restsOnSummary(ans.Answer, asked, read, summaries) {
		ans.Outcome = OutcomeAnswerRedacted
	}
	return ans
}

// usedTools says whether the answer rests on resources (its label names
// some, or a step called one): it may rest on what a tool returned, which
// the answer does not show, so it is not judged against memory.
func usedTools(ans QueryAnswer) bool {
	if ans.Label != nil && len(ans.Label.Resources) > 0 {
		return true
	}
	for _, s := range ans.Steps {
		for _, c := range s.ResourceCalls {
			if c.Error == "" {
				return true
			}
		}
	}
	return false
}

// ground keeps the sentences of answer that memory supports: a sentence
// that repeats the question (five of its words in a row) without resting
// on one fragment read (60% of its own words in it, at least three, or the
// sentence cut from it) is dropped — it says
// nothing memory holds. It reports whether any sentence rests on a
// fragment.
func ground(answer, question string, read []string) (string, bool) {
	frags := make([]map[string]bool, len(read))
	for i, r := range read {
		frags[i] = map[string]bool{}
		for _, w := range words(r) {
			frags[i][w] = true
		}
	}
	spans := make([]string, len(read))
	for i, r := range read {
		spans[i] = span(r)
	}
	q := map[string]bool{}
	for _, w := range words(question) {
		q[w] = true
	}
	var kept []string
	rested := false
	for _, sent := range sentenceRE.FindAllString(answer, -1) {
		var own []string // the sentence's words that are not the question's
		for _, w := range words(sent) {
			if !q[w] {
				own = append(own, w)
			}
		}
		rests := false
		for i, f := range frags {
			hit := 0
			for _, w := range own {
				if f[w] {
					hit++
				}
			}
			// Two common words prove nothing; a short span (a date, an
			// amount) cut from a fragment does.
			if (len(own) >= 3 && 10*hit >= 6*len(own)) || (len(own) > 0 && strings.Contains(spans[i], span(sent))) {
				rests = true
				break
			}
		}
		if rests {
			rested = true
		}
		if !rests && echoes(sent, question) {
			continue
		}
		kept = append(kept, strings.TrimSpace(sent))
	}
	return strings.Join(kept, " "), rested
}

// sentenceRE is a sentence of an answer or a note. A point between two
// digits is a decimal ("fever over 100.4"), not a sentence's end: cut
// there, the sentences came back joined as "100. 4".
var sentenceRE = regexp.MustCompile(`(?:[^.!?]|\.\d)+(?:[.!?]+["'”’]?|$)`)

// echoes says whether sentence repeats five words of question in a row.
func echoes(sentence, question string) bool {
	qw := words(question)
	sw := " " + strings.Join(words(sentence), " ") + " "
	for i := 0; i+5 <= len(qw); i++ {
		if strings.Contains(sw, " "+strings.Join(qw[i:i+5], " ")+" ") {
			return true
		}
	}
	return false
}

// span is s lower-cased with its spacing and edge punctuation normalised,
// to find one text inside another.
func span(s string) string {
	return strings.Trim(normalize(s), ".,;:!?\"'”’ ")
}

// words are the lower-cased words of s of three letters or more.
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 3 {
			out = append(out, w)
		}
	}
	return out
}
