package scenario

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// S1 is Scenario 1: fully collaborative memory over query overlap ρ.
type S1 struct {
	Runs []S1Run `json:"runs"`
}

// S1Run is one overlap in one configuration ("shared" or "isolated").
type S1Run struct {
	Overlap       int     `json:"overlap"`
	Mode          string  `json:"mode"`
	Accuracy      float64 `json:"accuracy"`
	LLMAccuracy   float64 `json:"llm_accuracy,omitempty"`
	AgentsPerQ    float64 `json:"agents_per_query"`
	ResourcesPerQ float64 `json:"resources_per_query"`
	ResourceCalls int     `json:"resource_calls"`
	// Reuse is how well memory served repeated questions.
	Reuse Reuse `json:"reuse"`
	// Cumulative resource calls after each round of queries (every user's
	// i-th query), from the audit trail: Fig. 3's curve.
	Cumulative []int   `json:"cumulative_resource_calls"`
	Queries    []asked `json:"queries"`
}

// run finds one run of the table.
func (s *S1) run(overlap int, mode string) *S1Run {
	for i := range s.Runs {
		if s.Runs[i].Overlap == overlap && s.Runs[i].Mode == mode {
			return &s.Runs[i]
		}
	}
	return nil
}

// Reduction is 1 − shared/isolated resource calls at overlap (0 without an
// isolated run).
func (s *S1) Reduction(overlap int) float64 {
	sh, iso := s.run(overlap, "shared"), s.run(overlap, "isolated")
	if sh == nil || iso == nil || iso.ResourceCalls == 0 {
		return 0
	}
	return 1 - float64(sh.ResourceCalls)/float64(iso.ResourceCalls)
}

// s1Plan is what every user asks, in order, at one overlap: the global
// questions (asked by everyone, in each user's own order) mixed with
// questions only that user asks.
func s1Plan(seed uint64, overlap, users, perUser int) ([]fact, [][]fact) {
	nm := newNamer(seed*1000 + uint64(overlap))
	global := perUser * overlap / 100
	need := global + users*(perUser-global)
	perDomain := (need + len(newsDomains) - 1) / len(newsDomains)
	var all []fact
	for _, d := range newsDomains {
		all = append(all, nm.subjectFacts(d, perDomain)...)
	}
	r := rand.New(rand.NewPCG(seed, uint64(overlap)))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	plan := make([][]fact, users)
	next := global
	for u := range plan {
		qs := append([]fact(nil), all[:global]...)
		qs = append(qs, all[next:next+perUser-global]...)
		next += perUser - global
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		plan[u] = qs
	}
	return all, plan
}

func (e *env) scenario1(ctx context.Context) (*S1, error) {
	modes := []string{"shared"}
	if e.cfg.Isolated {
		modes = append(modes, "isolated")
	}
	users, perUser := e.cfg.Users, e.cfg.QueriesPerUser
	e.bar = newProgress(e.cfg.Progress, "scenario 1", len(e.cfg.Overlaps)*len(modes)*users*perUser)
	defer e.bar.finish()
	out := &S1{}
	for _, rho := range e.cfg.Overlaps {
		facts, plan := s1Plan(e.cfg.Seed, rho, users, perUser)
		for _, mode := range modes {
			run, err := e.s1Run(ctx, rho, mode, facts, plan)
			if err != nil {
				return nil, fmt.Errorf("scenario 1, ρ=%d%%, %s: %w", rho, mode, err)
			}
			out.Runs = append(out.Runs, *run)
		}
	}
	return out, nil
}

func (e *env) s1Run(ctx context.Context, rho int, mode string, facts []fact, plan [][]fact) (*S1Run, error) {
	ns := fmt.Sprintf("%s_r%d%c", e.ns, rho, mode[0])
	tokens, userIDs := make([]string, len(plan)), make([]string, len(plan))
	for u := range plan {
		userIDs[u] = fmt.Sprintf("%s_u%d", ns, u+1)
		tok, err := e.c.user(ctx, userIDs[u])
		if err != nil {
			return nil, err
		}
		tokens[u] = tok
	}
	for _, d := range newsDomains {
		kb := ns + "_" + d.Name + "_kb"
		var mine []fact
		for _, f := range facts {
			if f.Domain == d.Name {
				mine = append(mine, f)
			}
		}
		if err := e.c.knowledgeBase(ctx, kb, d.Name+" news articles: "+d.Description, docs(mine)); err != nil {
			return nil, err
		}
		// Shared: one agent per domain for everyone. Isolated: a copy per
		// user, granted to that user only; the knowledge base is the same.
		// Both spell their ids alike ("_all" vs "_u1"): the offline
		// coordinator routes on the words of agent ids too.
		copies := []string{"_all"}
		if mode == "isolated" {
			copies = copies[:0]
			for u := range plan {
				copies = append(copies, fmt.Sprintf("_u%d", u+1))
			}
		}
		for i, suffix := range copies {
			agent := ns + "_" + d.Name + "_agent" + suffix
			if err := e.agent(ctx, agent, d.card()); err != nil {
				return nil, err
			}
			if err := e.c.grantAR(ctx, agent, kb, true); err != nil {
				return nil, err
			}
			for u := range plan {
				if mode == "shared" || u == i {
					if err := e.c.grantUA(ctx, userIDs[u], agent, true); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	run := &S1Run{Overlap: rho, Mode: mode}
	var repeats []bool
	type rep struct {
		f    fact
		user string
	}
	asked := map[rep]bool{}
	for i := range plan[0] {
		for u := range plan {
			f := plan[u][i]
			// Each user words each question their own way.
			q, err := e.ask(ctx, userIDs[u], tokens[u], f.Wording(u+i), f)
			if err != nil {
				return nil, err
			}
			q.Index = i
			run.Queries = append(run.Queries, q)
			// Isolated users share no memory: only their own repeats count.
			k := rep{f, ""}
			if mode == "isolated" {
				k.user = userIDs[u]
			}
			repeats = append(repeats, asked[k])
			asked[k] = true
		}
	}
	if err := e.audit(ctx, run.Queries); err != nil {
		return nil, err
	}
	sum := summarize(run.Queries)
	run.Accuracy, run.LLMAccuracy, run.AgentsPerQ, run.ResourcesPerQ = sum.accuracy, sum.llmAccuracy, sum.agents, sum.resources
	run.ResourceCalls = sum.calls
	run.Reuse = reuseOf(run.Queries, repeats)
	total := 0
	for i, q := range run.Queries {
		total += q.ResourceCalls
		if (i+1)%len(plan) == 0 {
			run.Cumulative = append(run.Cumulative, total)
		}
	}
	return run, nil
}

// summary holds the means of a set of queries.
type summary struct {
	accuracy, llmAccuracy, agents, resources, private, shared float64
	calls                                                     int
}

func summarize(qs []asked) summary {
	var s summary
	if len(qs) == 0 {
		return s
	}
	judged := 0
	for _, q := range qs {
		if q.Correct {
			s.accuracy++
		}
		if q.LLMCorrect != nil {
			judged++
			if *q.LLMCorrect {
				s.llmAccuracy++
			}
		}
		s.agents += float64(len(q.Agents))
		s.calls += q.ResourceCalls
		s.private += float64(q.PrivateRead)
		s.shared += float64(q.SharedRead)
	}
	n := float64(len(qs))
	s.accuracy /= n
	if judged > 0 {
		s.llmAccuracy /= float64(judged)
	}
	s.agents /= n
	s.resources = float64(s.calls) / n
	s.private /= n
	s.shared /= n
	return s
}
