package app

import (
	"context"
	"strings"
	"unicode"
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

// withOutcome sets ans.Outcome from what cmem delivered and withheld. An
// answer that called no tool and does not rest on the memory the query read (the model said
// it found nothing, or only repeated the question) is no_memory, and its
// text and its steps' texts become NoMemoryAnswer: a question's own words
// are not memory, and repeating them back is no answer.
func (a *App) withOutcome(ctx context.Context, ans QueryAnswer) QueryAnswer {
	if ans.Status != "answered" {
		return ans
	}
	if ans.Withheld != "" {
		ans.Outcome = OutcomeRefuse
		return ans
	}
	var read []string
	if len(ans.FragmentsRead) > 0 && a.store != nil {
		fs, err := a.store.Get(ctx, ans.FragmentsRead)
		if err == nil {
			for _, f := range fs {
				read = append(read, f.Value)
			}
		}
	}
	var asked string
	if len(ans.Steps) > 0 {
		asked = ans.Steps[0].Subquery
	}
	if !usedTools(ans) && !grounded(ans.Answer, asked, read) {
		ans.Outcome, ans.Answer = OutcomeNoMemory, NoMemoryAnswer
		for i := range ans.Steps {
			if ans.Steps[i].Withheld == "" && ans.Steps[i].Response != "" {
				ans.Steps[i].Response = NoMemoryAnswer
			}
		}
		return ans
	}
	ans.Outcome = OutcomeAnswer
	for _, s := range ans.Steps {
		if strings.HasSuffix(s.Agent, "-summary") && strings.HasPrefix(s.Agent, scopePrefix) {
			ans.Outcome = OutcomeAnswerRedacted
		}
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

// grounded says whether answer rests on the texts read: at least half of
// its words, once the words it repeats from the question are set aside,
// occur in them.
func grounded(answer, question string, read []string) bool {
	if len(read) == 0 {
		return false
	}
	q := map[string]bool{}
	for _, w := range words(question) {
		q[w] = true
	}
	have := map[string]bool{}
	for _, r := range read {
		for _, w := range words(r) {
			have[w] = true
		}
	}
	n, hit := 0, 0
	for _, w := range words(answer) {
		if q[w] && !have[w] {
			continue
		}
		if q[w] { // a question word the memory also holds: neutral
			continue
		}
		n++
		if have[w] {
			hit++
		}
	}
	return n >= 2 && 2*hit >= n
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
