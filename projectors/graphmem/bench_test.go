package graphmem_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/projectors/graphmem"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
)

// benchQueries is the size of one user's graph in the benchmarks.
const benchQueries = 2000

// benchSentence is a query of 4 to 7 words of a 300-word vocabulary, the
// first two from a 20-word one (a user's recurring subjects), so that
// queries share subjects without being near-duplicates.
func benchSentence(rng *rand.Rand) string {
	words := []string{fmt.Sprintf("subject%d", rng.IntN(20)), fmt.Sprintf("subject%d", rng.IntN(20))}
	for range 2 + rng.IntN(4) {
		words = append(words, fmt.Sprintf("word%d", rng.IntN(300)))
	}
	return strings.Join(words, " ")
}

// BenchmarkGraphRetrieve measures one graph-memory retrieval (embed the
// query, Eq. 4–8 with the read rule asked of every node) over one user's
// 2000 past queries, against the in-process vector view's exact search of
// as many fragments (embed the query, top 10) in the same run.
func BenchmarkGraphRetrieve(b *testing.B) {
	e := hashing.New(256)
	mem, err := graphmem.New(graphmem.Config{}, e)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	store, err := inmem.New(256)
	if err != nil {
		b.Fatal(err)
	}
	rev := uint64(0)
	var frags []vectors.Fragment
	ctx := context.Background()
	for i := range benchQueries {
		id, text := fmt.Sprintf("q%05d", i), benchSentence(rng)
		l := events.Label{Agents: []string{"a0"}, Resources: []string{"r0"}}
		for _, p := range []events.Payload{
			&events.QuerySubmitted{ID: id, User: "u0", Text: text, Channel: "http"},
			&events.AgentSelected{QueryID: id, User: "u0", Round: 1, Agent: "a0", Subquery: text, Offered: []string{"a0"}, Label: &events.Label{Agents: []string{}, Resources: []string{}}},
			&events.AgentResponded{QueryID: id, User: "u0", Round: 1, Agent: "a0", Subquery: text, Response: "answer " + text,
				Resources: []string{"r0"}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &l},
			&events.QueryAnswered{QueryID: id, User: "u0", Answer: "answer", Rounds: 1, Agents: []string{"a0"}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: &l},
		} {
			rev++
			env, err := events.New(events.Meta{Source: "b", Actor: "u0", Time: epoch}, p)
			if err != nil {
				b.Fatal(err)
			}
			if err := mem.Apply(events.Record{Envelope: env, Revision: rev}); err != nil {
				b.Fatal(err)
			}
		}
		v := embedOne(b, e, text)
		frags = append(frags, vectors.Fragment{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Key: text, Value: "answer", Tier: events.TierPrivate,
			User: "u0", Agents: []string{"a0"}, Resources: []string{"r0"}, CreatedAt: epoch, Revision: rev, Model: e.Model(), Vector: v})
	}
	if err := mem.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if err := store.Upsert(ctx, frags); err != nil {
		b.Fatal(err)
	}
	admit := func(l events.Label) bool { return len(l.Agents) <= 1 } // a cheap rule: the cost measured is the traversal's
	filter := vectors.NewFilter(events.TierPrivate, "u0", []string{"a0"}, []string{"a0"}, []string{"r0"}, []string{"r0"})
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = benchSentence(rng)
	}
	const rounds = 400
	measure := func(f func(text string) error) float64 {
		start := time.Now()
		for i := range rounds {
			if err := f(texts[i%len(texts)]); err != nil {
				b.Fatal(err)
			}
		}
		return float64(time.Since(start).Microseconds()) / rounds
	}
	var graphUS, viewUS float64
	for b.Loop() {
		graphUS = measure(func(text string) error {
			res, err := mem.Retrieve(ctx, graphmem.Request{User: "u0", Agent: "a0", Query: text, Admit: admit})
			if err == nil && len(res.Queries) == 0 {
				err = fmt.Errorf("no queries retrieved for %q", text)
			}
			return err
		})
		viewUS = measure(func(text string) error {
			v, err := e.Embed(ctx, []string{text})
			if err == nil {
				_, err = store.Search(ctx, v[0], filter, 10)
			}
			return err
		})
	}
	b.ReportMetric(graphUS, "µs/retrieve")
	b.ReportMetric(viewUS, "µs/view-search")
	benchfig.Record(b, benchfig.Figure{Name: fmt.Sprintf("graph memory retrieval, %d past queries of one user", benchQueries),
		Value: graphUS, Unit: "µs", Baseline: "in-process vector view: embed + exact top-10 over as many fragments",
		BaselineValue: viewUS, LowerIsBetter: true, Goal: "same order as the view's search"})
}
