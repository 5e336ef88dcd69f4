package scenario

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// S3 is Scenario 3: a dynamically evolving access graph (App. E).
type S3 struct {
	Blocks []S3Block `json:"blocks"` // Table 19
	Matrix Matrix    `json:"matrix"` // Fig. 6/11
}

// S3Block is one time block: the graph after its grants or revokes, and the
// means over its queries (Table 19's columns).
type S3Block struct {
	Block       string      `json:"block"`     // t0..t8
	Condition   string      `json:"condition"` // Grant or Revoke
	Edges       int         `json:"edges"`
	Accuracy    float64     `json:"accuracy"`
	LLMAccuracy float64     `json:"llm_accuracy,omitempty"`
	Resources   float64     `json:"resources_per_query"`
	Agents      float64     `json:"agents_per_query"`
	UserMemory  float64     `json:"user_memory_per_query"`
	CrossMemory float64     `json:"cross_memory_per_query"`
	Graph       [][2]string `json:"graph"`  // (user, agent) edges, short names
	Matrix      Matrix      `json:"matrix"` // this block's uses and grants (Fig. 11)
	Queries     []asked     `json:"queries"`
}

// evolve is Algorithms 1 and 2: from the empty graph, add step new
// user–agent edges per block by Bernoulli trials with probability p until
// the graph is complete, then remove step per block the same way until
// step edges are left. It returns the graph of each block.
func evolve(r *rand.Rand, users, agents int, p float64) [][][2]int {
	total := users * agents
	step := max(1, total/5)
	in := map[[2]int]bool{}
	var out [][][2]int
	snap := func() {
		var g [][2]int
		for u := range users {
			for a := range agents {
				if in[[2]int{u, a}] {
					g = append(g, [2]int{u, a})
				}
			}
		}
		out = append(out, g)
	}
	trials := func(want bool, n int) {
		for changed := 0; changed < n; {
			for u := range users {
				for a := range agents {
					e := [2]int{u, a}
					if changed < n && in[e] != want && r.Float64() < p {
						in[e] = want
						changed++
					}
				}
			}
		}
	}
	for len(in) < total {
		trials(true, min(step, total-len(in)))
		snap()
	}
	for len(in) > step {
		n := min(step, len(in)-step)
		trials(false, n)
		for e, v := range in {
			if !v {
				delete(in, e)
			}
		}
		snap()
	}
	return out
}

func (e *env) scenario3(ctx context.Context) (*S3, error) {
	users, per := e.cfg.Users, e.cfg.PerCategory
	cats := scienceDomains
	r := rand.New(rand.NewPCG(e.cfg.Seed, 3))
	graphs := evolve(r, users, len(cats), 0.2)
	nm := newNamer(e.cfg.Seed*1000 + 3)
	pool := max(per, users*per/2) // users share part of the questions
	ns := e.ns
	userIDs, tokens := make([]string, users), make([]string, users)
	for u := range users {
		userIDs[u] = fmt.Sprintf("%s_u%d", ns, u+1)
		tok, err := e.c.user(ctx, userIDs[u])
		if err != nil {
			return nil, err
		}
		tokens[u] = tok
	}
	agentIDs, kbIDs := make([]string, len(cats)), make([]string, len(cats))
	plan := make([][]fact, users) // the same questions in every block
	for i, d := range cats {
		facts := nm.facts(d, pool)
		agentIDs[i], kbIDs[i] = ns+"_"+d.Name+"_agent", ns+"_"+d.Name+"_kb"
		if err := e.c.knowledgeBase(ctx, kbIDs[i], d.Name+" papers: "+d.Description, docs(facts)); err != nil {
			return nil, err
		}
		if err := e.agent(ctx, agentIDs[i], d.card()); err != nil {
			return nil, err
		}
		if err := e.c.grantAR(ctx, agentIDs[i], kbIDs[i], true); err != nil {
			return nil, err
		}
		for u := range users {
			for _, k := range r.Perm(pool)[:per] {
				plan[u] = append(plan[u], facts[k])
			}
		}
	}
	for u := range plan {
		r.Shuffle(len(plan[u]), func(i, j int) { plan[u][i], plan[u][j] = plan[u][j], plan[u][i] })
	}
	e.bar = newProgress(e.cfg.Progress, "scenario 3", len(graphs)*users*len(plan[0]))
	defer e.bar.finish()

	out := &S3{}
	blockOf := map[string]int{}
	var blocks []access
	var all []asked
	prev := map[[2]int]bool{}
	for b, g := range graphs {
		now := map[[2]int]bool{}
		for _, edge := range g {
			now[edge] = true
			if !prev[edge] {
				if err := e.c.grantUA(ctx, userIDs[edge[0]], agentIDs[edge[1]], true); err != nil {
					return nil, err
				}
			}
		}
		for edge := range prev {
			if !now[edge] {
				if err := e.c.grantUA(ctx, userIDs[edge[0]], agentIDs[edge[1]], false); err != nil {
					return nil, err
				}
			}
		}
		cond := "Grant"
		if len(g) < len(prev) {
			cond = "Revoke"
		}
		prev = now
		acc, err := e.snapshot(ctx, userIDs)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, acc)
		blk := S3Block{Block: fmt.Sprintf("t%d", b), Condition: cond, Edges: len(g)}
		for _, edge := range g {
			blk.Graph = append(blk.Graph, [2]string{fmt.Sprintf("u%d", edge[0]+1), cats[edge[1]].Name})
		}
		for i := range plan[0] {
			for u := range users {
				f := plan[u][i]
				q, err := e.ask(ctx, userIDs[u], tokens[u], f.Question(), f)
				if err != nil {
					return nil, fmt.Errorf("scenario 3, block t%d: %w", b, err)
				}
				q.Index = i
				blockOf[q.ID] = b
				blk.Queries = append(blk.Queries, q)
			}
		}
		out.Blocks = append(out.Blocks, blk)
	}
	for b := range out.Blocks {
		blk := &out.Blocks[b]
		if err := e.audit(ctx, blk.Queries); err != nil {
			return nil, err
		}
		s := summarize(blk.Queries)
		blk.Accuracy, blk.LLMAccuracy, blk.Resources, blk.Agents = s.accuracy, s.llmAccuracy, s.resources, s.agents
		blk.UserMemory, blk.CrossMemory = s.private, s.shared
		all = append(all, blk.Queries...)
	}
	calls, err := resourceCalls(ctx, e.natsURL, e.reader)
	if err != nil {
		return nil, err
	}
	out.Matrix = buildMatrix(userIDs, agentIDs, kbIDs, all, blockOf, blocks, calls)
	for b := range out.Blocks {
		only := make([]access, len(blocks)) // the other blocks grant nothing
		for i := range only {
			only[i] = access{}
		}
		only[b] = blocks[b]
		of := map[string]int{}
		for _, q := range out.Blocks[b].Queries {
			of[q.ID] = b
		}
		out.Blocks[b].Matrix = buildMatrix(userIDs, agentIDs, kbIDs, out.Blocks[b].Queries, of, only, calls)
	}
	return out, nil
}
