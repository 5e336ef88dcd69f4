package app

import (
	"context"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
)

// aggregate merges the deliverable turns into the answer, once; the
// answer's label is the union of theirs. With none it says that nothing
// relevant was found and names the agents considered (A(u,t)).
func (p *Pipeline) aggregate(ctx context.Context, q query.Query, causation string, snap Snapshot) error {
	turns := p.deliverableTurns(q, snap)
	answer := llm.NothingRelevantAnswer(p.app.view.Agents(q.User, snap.Point()))
	var agents, read, written []string
	labels := make([]events.Label, 0, len(turns))
	if len(turns) > 0 {
		req := llm.AggregateRequest{Query: q.Text}
		for _, t := range turns {
			req.Turns = append(req.Turns, t.Turn)
			labels = append(labels, t.Label)
		}
		var err error
		if answer, err = p.app.llm.Aggregate(ctx, req); err != nil {
			return p.providerFailure(ctx, q, causation, "aggregator", err)
		}
	}
	for _, s := range q.Steps {
		if s.Responded && s.Refused == "" && s.Response != "" {
			agents = append(agents, s.Agent)
			read = append(read, s.Read...)
			written = append(written, s.Written...)
		}
	}
	label := events.Union(labels...)
	return p.emit(ctx, q, causation, events.StepID(q.ID, "answered"), &events.QueryAnswered{
		QueryID: q.ID, User: q.User, Answer: answer, Rounds: len(q.Steps), Label: &label,
		Agents: memory.SortedSet(agents), FragmentsRead: memory.SortedSet(read), FragmentsWritten: memory.SortedSet(written),
	})
}
