package query

import "github.com/cmem/cmem/events"

// Labels of v1 events, which were written before labels existed, are
// rebuilt from what those events do say, erring towards more provenance:
// a v1 subquery derives from every earlier response of its query, a v1
// response from its agent, its subquery and the resources it called, a v1
// answer from every response.

func subqueryLabel(p *events.AgentSelected, earlier []Step) events.Label {
	if p.Label != nil {
		return events.Union(*p.Label)
	}
	ls := make([]events.Label, 0, len(earlier))
	for _, s := range earlier {
		ls = append(ls, s.Label)
	}
	return events.Union(ls...)
}

func responseLabel(p *events.AgentResponded, subquery events.Label) events.Label {
	if p.Label != nil {
		return events.Union(*p.Label)
	}
	return events.Union(subquery, events.Label{Agents: []string{p.Agent}, Resources: p.Resources, Fragments: p.FragmentsRead})
}

func answerLabel(p *events.QueryAnswered, steps []Step) events.Label {
	if p.Label != nil {
		return events.Union(*p.Label)
	}
	ls := make([]events.Label, 0, len(steps))
	for _, s := range steps {
		if s.Refused == "" {
			ls = append(ls, s.Label)
		}
	}
	return events.Union(ls...)
}
