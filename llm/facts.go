package llm

import "context"

// FactJudge is a provider that decides with a model whether a new memory
// is a new version of an existing one (mem0's UPDATE/DELETE/NOOP against
// ADD). It is optional: the offline provider has none, and the offline
// same-key rule decides without a model.
type FactJudge interface {
	// SameFact reports whether candidate states the same subject and
	// attribute as existing (an update, a contradiction or a repeat), so
	// that it supersedes it.
	SameFact(ctx context.Context, existing, candidate KeyValue) (bool, error)
}

// JudgeOf returns p's FactJudge, looking through Traced.
func JudgeOf(p Provider) (FactJudge, bool) {
	if t, ok := p.(Traced); ok {
		return JudgeOf(t.Next)
	}
	j, ok := p.(FactJudge)
	return j, ok
}
