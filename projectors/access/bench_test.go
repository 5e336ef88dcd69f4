package access_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// The benchmark graph: 10k users, 100 agents, 1k resources and 100k grant
// events (10% of them revokes), times one second apart.
const (
	benchUsers, benchAgents, benchResources, benchEvents = 10_000, 100, 1_000, 100_000
)

var (
	benchOnce  sync.Once
	benchGraph *access.Graph
	benchT0    = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

func bigGraph(b *testing.B) *access.Graph {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(3, 4))
		g := access.NewGraph()
		for i := range benchEvents {
			var p events.Payload
			revoke := rng.IntN(10) == 0
			if i%5 < 3 { // 60% user->agent, 40% agent->resource
				u, a := fmt.Sprintf("u%d", rng.IntN(benchUsers)), fmt.Sprintf("a%d", rng.IntN(benchAgents))
				p = &events.UserAgentGranted{User: u, Agent: a}
				if revoke {
					p = &events.UserAgentRevoked{User: u, Agent: a}
				}
			} else {
				a, r := fmt.Sprintf("a%d", rng.IntN(benchAgents)), fmt.Sprintf("r%d", rng.IntN(benchResources))
				p = &events.AgentResourceGranted{Agent: a, Resource: r}
				if revoke {
					p = &events.AgentResourceRevoked{Agent: a, Resource: r}
				}
			}
			if err := g.Apply(record(b, uint64(i+1), benchT0.Add(time.Duration(i)*time.Second), p)); err != nil {
				b.Fatal(err)
			}
		}
		benchGraph = g
	})
	return benchGraph
}

type question struct {
	user, agent string
	prov        access.Provenance
}

func questions(n int) []question {
	rng := rand.New(rand.NewPCG(5, 6))
	qs := make([]question, n)
	for i := range qs {
		q := question{user: fmt.Sprintf("u%d", rng.IntN(benchUsers)), agent: fmt.Sprintf("a%d", rng.IntN(benchAgents))}
		for range 1 + rng.IntN(3) {
			q.prov.Agents = append(q.prov.Agents, fmt.Sprintf("a%d", rng.IntN(benchAgents)))
			q.prov.Resources = append(q.prov.Resources, fmt.Sprintf("r%d", rng.IntN(benchResources)))
		}
		qs[i] = q
	}
	return qs
}

// BenchmarkAdmissible is one M(u,a,p) membership check of a fragment with
// 1-3 agents and 1-3 resources in its provenance.
func BenchmarkAdmissible(b *testing.B) {
	g := bigGraph(b)
	qs := questions(4096)
	points := map[string]access.Point{
		"latest":   access.Latest(),
		"revision": access.AtRevision(benchEvents / 2),
		"time":     access.AtTime(benchT0.Add(benchEvents / 3 * time.Second)),
		// enforcement's point: a revision judged at a wall clock (expiries)
		"now": access.Now(benchEvents/2, benchT0.Add(benchEvents/2*time.Second)),
	}
	for name, p := range points {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				q := qs[i%len(qs)]
				g.Admissible(q.user, q.agent, q.prov, p)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
		})
	}
}

// BenchmarkAsOf is "what could u use at p": A(u,p) with R(a,p) per agent.
func BenchmarkAsOf(b *testing.B) {
	g := bigGraph(b)
	qs := questions(4096)
	for name, p := range map[string]access.Point{
		"revision": access.AtRevision(benchEvents * 3 / 4),
		"time":     access.AtTime(benchT0.Add(benchEvents / 4 * time.Second)),
	} {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				g.Access(qs[i%len(qs)].user, p)
				i++
			}
		})
	}
}
