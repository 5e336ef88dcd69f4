package app

import (
	"context"
	"log/slog"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// judgedCandidates is how many of the nearest fragments the model is asked
// about: each question is a model call on the write path.
const judgedCandidates = 3

// judged asks the model (when the provider is an llm.FactJudge) whether fw
// is a new version of one of the nearest fragments of its tier that user
// may read through agent now, nearest first; it returns the first it says
// yes to and the decision's name, or nothing. Only fragments inside
// M(user, agent, now) are shown to the model, as in an agent's turn. A
// failing model decides nothing: the write stands as a new fact.
func (a *App) judged(ctx context.Context, user, agent string, fw *events.FragmentWritten, now access.Point) (memory.FragmentInfo, string) {
	judge, ok := llm.JudgeOf(a.llm)
	if !ok || fw.Embedding == nil {
		return memory.FragmentInfo{}, ""
	}
	vec, err := fw.Embedding.DecodeVector()
	if err != nil {
		return memory.FragmentInfo{}, ""
	}
	f := vectors.NewFilter(fw.Tier, user, a.view.Agents(user, now), a.view.AgentIDs(), a.view.Resources(agent, now), a.view.ResourceIDs())
	hits, err := a.store.Search(ctx, vec, f, judgedCandidates+1)
	if err != nil {
		slog.Warn("supersession: nearest fragments unavailable", "fragment", fw.ID, "err", err)
		return memory.FragmentInfo{}, ""
	}
	for _, h := range hits {
		info, ok := a.fragments.Get(h.ID)
		if h.ID == fw.ID || !ok || info.Tier != fw.Tier || !a.readable(user, agent, info, now) {
			continue
		}
		same, err := judge.SameFact(ctx, llm.KeyValue{Key: h.Key, Value: h.Value}, llm.KeyValue{Key: fw.Key, Value: fw.Value})
		if err != nil {
			slog.Warn("supersession: the model did not decide; the write is a new fact", "fragment", fw.ID, "err", err)
			return memory.FragmentInfo{}, ""
		}
		if same {
			return info, "model:" + a.llm.Name()
		}
	}
	return memory.FragmentInfo{}, ""
}
