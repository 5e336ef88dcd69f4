package scenario

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Coordinations are the coordination schemes of seed 004 §3.2, as cmem's
// coordination policy names them.
var Coordinations = []string{"centralized", "decentralized", "layered", "shared_pool"}

// S2Mode is one coordination scheme's run of Scenario 2's shared
// configuration: the four roles ask the same objectives, their users
// under a coordination policy of this kind.
type S2Mode struct {
	Coordination string `json:"coordination"`
	// Participants is "all" or "expert" (seed 004 §5); "coordinator" for
	// the centralized scheme, whose coordinator chooses every round.
	Participants  string  `json:"participants"`
	Queries       int     `json:"queries"`
	Accuracy      float64 `json:"accuracy"`
	LLMAccuracy   float64 `json:"llm_accuracy,omitempty"`
	RoundsPerQ    float64 `json:"rounds_per_query"`
	AgentsPerQ    float64 `json:"agents_per_query"`
	ResourceCalls int     `json:"resource_calls"`
	// Roles is each role's figures, in s2Roles order.
	Roles []S2ModeRole `json:"roles"`
}

// S2ModeRole is one role's figures in one scheme's run.
type S2ModeRole struct {
	Role          string  `json:"role"`
	Accuracy      float64 `json:"accuracy"`
	RoundsPerQ    float64 `json:"rounds_per_query"`
	ResourceCalls int     `json:"resource_calls"`
}

// Name is the run's name: "centralized" or "layered/expert".
func (m S2Mode) Name() string {
	if m.Participants == "coordinator" {
		return m.Coordination
	}
	return m.Coordination + "/" + m.Participants
}

// modeRuns are the runs of the schemes besides the centralized one (which
// is the shared run): one per scheme and participants setting.
func (e *env) modeRuns() []s2Setup {
	var runs []s2Setup
	for _, c := range e.cfg.Coordination {
		if c == "centralized" {
			continue
		}
		for _, p := range e.cfg.Participants {
			runs = append(runs, s2Setup{name: c + "/" + p, tag: c[:1] + p[:1], coordination: c, participants: p})
		}
	}
	return runs
}

// modeOf sums one run up.
func modeOf(run s2Setup, o s2Outcome) S2Mode {
	m := S2Mode{Coordination: run.coordination, Participants: run.participants, Queries: len(o.qs)}
	if run.coordination == "centralized" {
		m.Participants = "coordinator"
	}
	all := summarize(o.qs)
	m.Accuracy, m.LLMAccuracy, m.AgentsPerQ, m.ResourceCalls = all.accuracy, all.llmAccuracy, all.agents, all.calls
	m.RoundsPerQ = roundsPerQuery(o.qs)
	for u, r := range s2Roles {
		mine := o.byUser(u)
		s := summarize(mine)
		m.Roles = append(m.Roles, S2ModeRole{Role: r.id, Accuracy: s.accuracy, RoundsPerQ: roundsPerQuery(mine), ResourceCalls: s.calls})
	}
	return m
}

func roundsPerQuery(qs []asked) float64 {
	if len(qs) == 0 {
		return 0
	}
	n := 0
	for _, q := range qs {
		n += q.Rounds
	}
	return float64(n) / float64(len(qs))
}

// coordination sets the coordination policy of one user.
func (c *client) coordination(ctx context.Context, user, kind, participants string) error {
	body := map[string]any{"target": "coordination", "kind": kind, "scope": map[string]string{"user": user}}
	if participants != "" {
		body["config"] = map[string]string{"participants": participants}
	}
	return c.do(ctx, "POST", "/v1/policies", c.admin, body, nil, http.StatusCreated)
}

// modesMarkdown is the report's comparison of the schemes.
func modesMarkdown(b *strings.Builder, modes []S2Mode, judged bool) {
	b.WriteString("\n## Coordination schemes (seed 004 §3.2, §5): the shared configuration under each\n\n")
	b.WriteString("Each row runs the same objectives with the users' coordination policy set to the scheme; " +
		"participants are every agent the role may invoke (all) or those the coordinator picks for the query (expert). " +
		"Rounds are the steps of each answer (`POST /v1/queries`), resource calls the `cmem.resource.called` events.\n\n")
	header(b, judged, []string{"scheme", "participants", "accuracy"}, []string{"rounds / query", "agents / query", "resource calls"})
	for _, m := range modes {
		fmt.Fprintf(b, "| %s | %s | %.2f |", m.Coordination, m.Participants, m.Accuracy)
		if judged {
			fmt.Fprintf(b, " %.2f |", m.LLMAccuracy)
		}
		fmt.Fprintf(b, " %.2f | %.2f | %d |\n", m.RoundsPerQ, m.AgentsPerQ, m.ResourceCalls)
	}
	b.WriteString("\nPaper (004 Table 1, cosine similarity of generated abstracts, not accuracy): all-domain decentralized 0.566, " +
		"centralized 0.556, layered 0.582, shared pool 0.565; expert 0.588, 0.571, 0.579, 0.578.\n")
	for _, m := range modes {
		fmt.Fprintf(b, "\n### %s\n\n| role | accuracy | rounds / query | resource calls |\n|---|---|---|---|\n", m.Name())
		for _, r := range m.Roles {
			fmt.Fprintf(b, "| %s | %.2f | %.2f | %d |\n", r.Role, r.Accuracy, r.RoundsPerQ, r.ResourceCalls)
		}
	}
}

// checkModes validates the coordination and participants lists.
func checkModes(coordination, participants []string) []error {
	var errs []error
	for _, c := range coordination {
		if !slices.Contains(Coordinations, c) {
			errs = append(errs, fmt.Errorf("scenario: coordination %q: want one of %s", c, strings.Join(Coordinations, ", ")))
		}
	}
	for _, p := range participants {
		if p != "all" && p != "expert" {
			errs = append(errs, fmt.Errorf("scenario: participants %q: want all or expert", p))
		}
	}
	return errs
}
