package scenario

import (
	"context"
	"fmt"
	"slices"
)

// S2 is Scenario 2: asymmetric access, four roles (Tables 5–6).
type S2 struct {
	Users []S2User `json:"users"`
	// Queries per run ("shared", "isolated", and one per coordination
	// scheme and participants setting, as "layered/expert").
	Queries map[string][]asked `json:"queries"`
	Matrix  Matrix             `json:"matrix"` // shared configuration
	// Modes compares the coordination schemes (seed 004 §3.2, §5) on the
	// shared configuration.
	Modes []S2Mode `json:"modes,omitempty"`
}

// S2User is one role's resource calls in each configuration (Fig. 4).
type S2User struct {
	Role             string   `json:"role"`
	Agents           []string `json:"agents"`
	Shared           int      `json:"shared_resource_calls"`
	Isolated         int      `json:"isolated_resource_calls"`
	SharedAccuracy   float64  `json:"shared_accuracy"`
	IsolatedAccuracy float64  `json:"isolated_accuracy"`
}

var (
	s2Domains = []domain{
		{"market", "market research: consumer demand index, market share, competitor count, customer segment size", []string{"consumer demand index", "market share", "competitor count", "customer segment size", "survey panel size", "brand awareness score", "retail outlet count", "online search volume"}},
		{"finance", "financial forecasting: forecast revenue, break-even month, gross margin, capital expenditure", []string{"forecast revenue", "break-even month", "gross margin", "capital expenditure", "payback period", "operating budget", "net present value", "cash reserve"}},
		{"logistics", "logistics and operations: shipping lead time, warehouse throughput, freight cost, supplier count", []string{"shipping lead time", "warehouse throughput", "freight cost", "supplier count", "pallet capacity", "delivery radius", "customs clearance days", "truck fleet size"}},
	}
	// Table 5: which agents each role may invoke.
	s2Roles = []struct {
		id     string
		agents []string
	}{
		{"market_researcher", []string{"market_agent"}},
		{"financial_analyst", []string{"finance_agent", "decision_agent"}},
		{"logistics_lead", []string{"logistics_agent", "finance_agent"}},
		{"strategy_director", []string{"market_agent", "finance_agent", "logistics_agent", "decision_agent"}},
	}
	// Table 6: which resources each agent may use.
	s2Agents = []struct {
		id, description string
		resources       []string
	}{
		{"market_agent", s2Domains[0].card(), []string{"market_kb", "strategic_computation"}},
		{"finance_agent", s2Domains[1].card(), []string{"finance_forecaster", "strategic_computation"}},
		{"logistics_agent", s2Domains[2].card(), []string{"logistics_comparator", "strategic_computation"}},
		{"decision_agent", "strategy decisions: strategic growth plan, recommendations, priorities, budget computation", []string{"market_kb", "finance_forecaster", "logistics_comparator", "strategic_computation"}},
	}
)

// s2Objective is one business objective split into the roles' subtasks.
type s2Objective struct {
	Entity                     string
	Market, Finance, Logistics fact
}

// tasks returns each role's query and the facts it needs: each role asks
// its part, the logistics lead also the finance part it can reach, and the
// strategy director the whole objective.
func (o s2Objective) tasks() [][]fact {
	return [][]fact{{o.Market}, {o.Finance}, {o.Logistics, o.Finance}, {o.Market, o.Finance, o.Logistics}}
}

func s2Plan(seed uint64, n int) []s2Objective {
	nm := newNamer(seed*1000 + 2)
	out := make([]s2Objective, n)
	for i := range out {
		e := nm.name()
		f := func(d domain) fact {
			return fact{Domain: d.Name, Entity: e, Attr: d.Attrs[i%len(d.Attrs)], Value: nm.value()}
		}
		out[i] = s2Objective{Entity: e, Market: f(s2Domains[0]), Finance: f(s2Domains[1]), Logistics: f(s2Domains[2])}
	}
	return out
}

func (e *env) scenario2(ctx context.Context) (*S2, error) {
	runs := []s2Setup{{name: "shared", tag: "s", coordination: "centralized"}}
	if e.cfg.Isolated {
		runs = append(runs, s2Setup{name: "isolated", tag: "i", coordination: "centralized"})
	}
	modes := e.modeRuns()
	plan := s2Plan(e.cfg.Seed, e.cfg.Objectives)
	e.bar = newProgress(e.cfg.Progress, "scenario 2", (len(runs)+len(modes))*len(plan)*len(s2Roles))
	defer e.bar.finish()
	out := &S2{Queries: map[string][]asked{}}
	for _, r := range s2Roles {
		out.Users = append(out.Users, S2User{Role: r.id, Agents: r.agents})
	}
	for _, run := range append(runs, modes...) {
		o, err := e.s2Run(ctx, run, plan)
		if err != nil {
			return nil, fmt.Errorf("scenario 2, %s: %w", run.name, err)
		}
		out.Queries[run.name] = o.qs
		if run.name == "shared" {
			out.Matrix = o.matrix
		} else {
			out.Matrix.Outside += o.matrix.Outside
		}
		switch run.name {
		case "shared", "isolated":
			out.addRoles(run.name, o)
		}
		if run.name != "isolated" && slices.Contains(e.cfg.Coordination, run.coordination) {
			out.Modes = append(out.Modes, modeOf(run, o))
		}
	}
	return out, nil
}

// addRoles sets each role's resource calls and accuracy in the shared or
// isolated configuration (Fig. 4).
func (s *S2) addRoles(config string, o s2Outcome) {
	for u := range s2Roles {
		sum := summarize(o.byUser(u))
		if config == "shared" {
			s.Users[u].Shared, s.Users[u].SharedAccuracy = sum.calls, sum.accuracy
		} else {
			s.Users[u].Isolated, s.Users[u].IsolatedAccuracy = sum.calls, sum.accuracy
		}
	}
}

// s2Setup is one run of the plan: its name in the results, the tag in its
// ids, and the coordination policy set on its users.
type s2Setup struct {
	name, tag                  string
	coordination, participants string
}

// s2Outcome is what one run measured.
type s2Outcome struct {
	users  []string // the run's user ids, in s2Roles order
	qs     []asked
	matrix Matrix
}

// byUser is the queries of role u.
func (o s2Outcome) byUser(u int) []asked {
	var mine []asked
	for _, q := range o.qs {
		if q.User == o.users[u] {
			mine = append(mine, q)
		}
	}
	return mine
}

func (e *env) s2Run(ctx context.Context, run s2Setup, plan []s2Objective) (s2Outcome, error) {
	ns := e.ns + "_" + run.tag
	var facts [3][]fact
	for _, o := range plan {
		facts[0], facts[1], facts[2] = append(facts[0], o.Market), append(facts[1], o.Finance), append(facts[2], o.Logistics)
	}
	kbs := []struct{ id, desc string }{{"market_kb", "market database"}, {"finance_forecaster", "financial forecasts"}, {"logistics_comparator", "logistics comparator"}}
	for i, kb := range kbs {
		if err := e.c.knowledgeBase(ctx, ns+"_"+kb.id, kb.desc+": "+s2Domains[i].card(), docs(facts[i])); err != nil {
			return s2Outcome{}, err
		}
	}
	if err := e.c.computation(ctx, ns+"_strategic_computation", "strategic computation: evaluates arithmetic expressions for budgets and ROI"); err != nil {
		return s2Outcome{}, err
	}
	users, tokens := make([]string, len(s2Roles)), make([]string, len(s2Roles))
	for u, r := range s2Roles {
		users[u] = ns + "_" + r.id
		tok, err := e.c.user(ctx, users[u])
		if err != nil {
			return s2Outcome{}, err
		}
		tokens[u] = tok
		if err := e.c.coordination(ctx, users[u], run.coordination, run.participants); err != nil {
			return s2Outcome{}, err
		}
	}
	// Shared: one copy of each agent, granted per Table 5. Isolated: each
	// role its own copy of each agent it may invoke.
	agentID := func(agent string, u int) string {
		if run.name != "isolated" {
			return ns + "_" + agent + "_all"
		}
		return fmt.Sprintf("%s_%s_u%d", ns, agent, u+1)
	}
	made := map[string]bool{}
	for u, r := range s2Roles {
		for _, a := range s2Agents {
			if !slices.Contains(r.agents, a.id) {
				continue
			}
			id := agentID(a.id, u)
			if !made[id] {
				made[id] = true
				if err := e.agent(ctx, id, a.description); err != nil {
					return s2Outcome{}, err
				}
				for _, res := range a.resources {
					if err := e.c.grantAR(ctx, id, ns+"_"+res, true); err != nil {
						return s2Outcome{}, err
					}
				}
			}
			if err := e.c.grantUA(ctx, users[u], id, true); err != nil {
				return s2Outcome{}, err
			}
		}
	}
	acc, err := e.snapshot(ctx, users)
	if err != nil {
		return s2Outcome{}, err
	}
	var qs []asked
	for i, o := range plan {
		for u, want := range o.tasks() {
			text := ""
			if u == 3 {
				text = "Craft a strategic growth plan for " + o.Entity + ". "
			}
			for j, f := range want {
				if j > 0 {
					text += " "
				}
				text += f.Question()
			}
			q, err := e.ask(ctx, users[u], tokens[u], text, want...)
			if err != nil {
				return s2Outcome{}, err
			}
			q.Index = i
			qs = append(qs, q)
		}
	}
	if err := e.audit(ctx, qs); err != nil {
		return s2Outcome{}, err
	}
	blockOf := map[string]int{}
	for _, q := range qs {
		blockOf[q.ID] = 0
	}
	calls, err := resourceCalls(ctx, e.natsURL, e.reader)
	if err != nil {
		return s2Outcome{}, err
	}
	var agents []string
	for _, a := range s2Agents {
		for u := range s2Roles {
			if id := agentID(a.id, u); !slices.Contains(agents, id) && made[id] {
				agents = append(agents, id)
			}
		}
	}
	var resources []string
	for _, kb := range kbs {
		resources = append(resources, ns+"_"+kb.id)
	}
	resources = append(resources, ns+"_strategic_computation")
	return s2Outcome{users: users, qs: qs, matrix: buildMatrix(users, agents, resources, qs, blockOf, []access{acc}, calls)}, nil
}
