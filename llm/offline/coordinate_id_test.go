package offline

import (
	"context"
	"testing"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// An agent with a generated id ("planner" and a random hex suffix) whose
// resources reach the question is chosen whatever its suffix: the id's
// words can pull the description's cosine under 0, and before the
// description was floored at 0 these four suffixes (found among 2,000
// random ones, 17 failed) left the query unanswered.
func TestGeneratedIDNeverHidesAReachingAgent(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	q := "Where should I eat in Lyon?"
	v, err := p.embed(ctx, q, "Lyon is known for its bouchons.")
	if err != nil {
		t.Fatal(err)
	}
	reach := embedding.Cosine(v[0], v[1])
	for _, suffix := range []string{"dd42a70b", "3223133b", "b2ad9d31", "5a330042"} {
		id := "planner" + suffix
		d, err := p.Coordinate(ctx, llm.CoordinateRequest{Query: q, Agents: []llm.AgentCard{{ID: id, Description: "plans trips", Reach: reach}}})
		if err != nil {
			t.Fatal(err)
		}
		if d.Stop || d.Agent != id {
			t.Errorf("%s (reach %.2f): decision %+v, want the agent", id, reach, d)
		}
	}
}
