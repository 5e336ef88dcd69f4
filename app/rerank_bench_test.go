package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/resources"
)

// The re-ranker benchmark's corpus: for every (place, aspect) topic a
// question, the fragment that answers it (worded unlike the question), and
// a look-alike that repeats the question and says nothing. Admitted
// memories are new (question, answer) pairs on random topics, worded unlike
// the test questions too.
var (
	places = []string{"Oslo", "Lisbon", "Krakow", "Porto", "Seville", "Bergen", "Ghent", "Bruges", "Tallinn", "Riga",
		"Vilnius", "Ljubljana", "Zagreb", "Split", "Valencia", "Bologna"}
	facts = []string{"fjord", "tram", "pastry", "castle", "harbour", "market", "cathedral", "vineyard", "lagoon", "bridge",
		"gallery", "festival", "garden", "tower", "bakery", "cellar", "chapel", "meadow", "island", "canal", "orchard",
		"quarry", "mill", "fortress", "monastery", "pier", "plaza", "arcade", "bazaar", "brewery", "lighthouse", "palace"}
	months  = []string{"January", "March", "April", "May", "June", "September", "October", "December"}
	aspects = []struct{ question, lookAlike, key, fact, learnedKey, learned string }{
		{"What is the best season to visit %s?", "best season to visit %s?", "%s weather by month", "%s is calm in %s with %s and %s",
			"best season for a %s trip", "go in %s for the %s and %s"},
		{"Where should I eat in %s?", "where to eat in %s?", "%s cuisine guide", "%s cooks in %s with %s and %s",
			"where do people eat well in %s", "book in %s near the %s and %s"},
		{"How do I get around %s?", "getting around %s?", "%s transit tips", "%s runs in %s past the %s and %s",
			"how to get around %s cheaply", "ride in %s by the %s and %s"},
	}
)

type topic struct{ place, aspect, month, f1, f2 int }

func topics() []topic {
	var out []topic
	for p := range places {
		for a := range aspects {
			i := p*len(aspects) + a
			out = append(out, topic{p, a, i % len(months), (2 * i) % len(facts), (2*i + 1) % len(facts)})
		}
	}
	return out
}

// curve is retrieval quality at each pool size, with the re-ranker and
// without it (the same log and view): Corpus is the mean reciprocal rank
// of a question's answering fragment among the corpus (the admitted
// memories left out of the ranks), Any that of the first fragment of the
// view that holds the answer, the corpus's or an admitted memory of the
// topic.
type curve struct {
	Corpus, CorpusBase, Any, AnyBase []float64
	// PerView and PerViewBase are the mean time of one view (k_cross 100)
	// at the largest pool, with and without the re-ranker.
	PerView, PerViewBase time.Duration
}

// poolCurve writes the corpus, then admits memories until the pool holds
// each of sizes, and measures the curve after each.
func poolCurve(tb testing.TB, emb embedding.Embedder, sizes []int) curve {
	r, _ := newRerankRig(tb, emb)
	deps := r.deps
	deps.Reranker = nil
	plain, err := app.New(app.Config{AdminToken: "admin-token-for-tests", ReadWait: time.Second, Source: "test", Resources: resources.Options{}}, deps)
	if err != nil {
		tb.Fatal(err)
	}
	ts := topics()
	corpus := map[string]int{}   // corpus fragment → the topic it answers, -1 for a look-alike
	memories := map[string]int{} // admitted memory → the topic it answers
	for i, t := range ts {
		as, p := aspects[t.aspect], places[t.place]
		corpus[write(tb, r, "alice", "x", fmt.Sprintf(as.key, p), fmt.Sprintf(as.fact, p, months[t.month], facts[t.f1], facts[t.f2]))] = i
		corpus[write(tb, r, "alice", "x", fmt.Sprintf(as.lookAlike, p), "any advice?")] = -1
	}
	gate(tb, r)
	rnd := rand.New(rand.NewPCG(2, 16))
	var c curve
	admitted := 0
	for _, size := range sizes {
		for ; admitted < size; admitted++ {
			i := rnd.IntN(len(ts))
			t := ts[i]
			as, p := aspects[t.aspect], places[t.place]
			memories[write(tb, r, "alice", "x", fmt.Sprintf(as.learnedKey, p), fmt.Sprintf(as.learned, months[t.month], facts[t.f1], facts[t.f2]))] = i
		}
		start := time.Now()
		cor, any := meanRR(tb, r.app, ts, corpus, memories)
		mid := time.Now()
		corBase, anyBase := meanRR(tb, plain, ts, corpus, memories)
		c.PerView, c.PerViewBase = mid.Sub(start)/time.Duration(len(ts)), time.Since(mid)/time.Duration(len(ts))
		c.Corpus, c.CorpusBase = append(c.Corpus, cor), append(c.CorpusBase, corBase)
		c.Any, c.AnyBase = append(c.Any, any), append(c.AnyBase, anyBase)
	}
	return c
}

// meanRR measures a's views (k_cross 100) of every topic's question: the
// mean reciprocal ranks of the curve (0 for a question whose answer is
// absent).
func meanRR(tb testing.TB, a *app.App, ts []topic, corpus, memories map[string]int) (inCorpus, first float64) {
	for i, t := range ts {
		q := fmt.Sprintf(aspects[t.aspect].question, places[t.place])
		v, err := a.MemoryView(context.Background(), domain.Identity{ID: "alice"}, app.ViewRequest{Agent: "x", Query: q, KCross: app.MaxK})
		if err != nil {
			tb.Fatal(err)
		}
		rank, found := 0, false
		for n, f := range v.Shared {
			if topic, ok := memories[f.ID]; ok && topic == i && !found {
				first, found = first+1/float64(n+1), true
			}
			topic, ok := corpus[f.ID]
			if !ok {
				continue // an admitted memory has no rank in the corpus
			}
			rank++
			if topic == i {
				inCorpus += 1 / float64(rank)
				if !found {
					first, found = first+1/float64(n+1), true
				}
				break
			}
		}
	}
	return inCorpus / float64(len(ts)), first / float64(len(ts))
}

// Retrieval quality improves as the admitted pool grows, and the
// re-ranker lifts it well above the view's own ranking. (While the view
// ranked by the key's vector alone, the re-ranker was held to double the
// baseline; the hybrid view finds the answers' words in their values and
// its own MRR here is about 0.68, so doubling it is impossible: the
// re-ranker is held to a fifth more.)
func TestRerankImprovesAsThePoolGrows(t *testing.T) {
	c := poolCurve(t, hashing.New(64), []int{0, 50, 200})
	t.Logf("%+v", c)
	m, base := c.Corpus, c.CorpusBase
	if m[0] != base[0] || !(m[1] > m[0]) || !(m[2] > m[1]) || !(m[2] > 1.2*base[2]) {
		t.Fatalf("MRR with the re-ranker %v, without %v: want equal at 0, rising with the pool, above the baseline", m, base)
	}
}

// BenchmarkRerankPool records the curve as the admitted pool grows,
// against the same view without the re-ranker, with the hashing embedder
// the defaults were tuned with and the semantic one cmem uses by default.
func BenchmarkRerankPool(b *testing.B) {
	sem, err := semantic.New()
	if err != nil {
		b.Fatal(err)
	}
	sizes := []int{0, 25, 50, 100, 200}
	for range b.N {
		for _, emb := range []embedding.Embedder{hashing.New(64), sem} {
			c := poolCurve(b, emb, sizes)
			for i, n := range sizes {
				benchfig.Record(b, benchfig.Figure{Name: fmt.Sprintf("re-ranker (%s): MRR of the answer in the corpus, %d admitted memories", emb.Model(), n),
					Value: c.Corpus[i], Unit: "MRR", Baseline: "the same view by similarity only", BaselineValue: c.CorpusBase[i],
					Goal: "rises with the pool"})
			}
			for i, n := range sizes {
				benchfig.Record(b, benchfig.Figure{Name: fmt.Sprintf("re-ranker (%s): MRR of the first fragment holding the answer, %d admitted memories", emb.Model(), n),
					Value: c.Any[i], Unit: "MRR", Baseline: "the same view by similarity only", BaselineValue: c.AnyBase[i]})
			}
			benchfig.Record(b, benchfig.Figure{Name: fmt.Sprintf("memory view k_cross 100 with the re-ranker (%s), %d admitted memories", emb.Model(), sizes[len(sizes)-1]),
				Value: float64(c.PerView.Microseconds()) / 1000, Unit: "ms", Baseline: "the same view by similarity only",
				BaselineValue: float64(c.PerViewBase.Microseconds()) / 1000, LowerIsBetter: true})
		}
	}
}
