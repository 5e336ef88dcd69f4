package rerank_test

import (
	"cmp"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/rerank"
)

var emb = hashing.New(64)

// frag is a FragmentWritten of the shared tier through agents, embedded
// as the write path embeds it, admitted by a gate when admitted is set.
func frag(id, key, value string, admitted bool, agents ...string) *events.FragmentWritten {
	v := emb.Vector(key)
	f := &events.FragmentWritten{ID: id, Key: key, Value: value, Tier: events.TierShared, User: "u", Agents: agents,
		Resources: []string{}, CreatedAt: time.Unix(0, 0), Provenance: events.ProvenanceTransitive,
		Embedding: &events.Embedding{Model: emb.Model(), Dims: len(v), Vector: events.EncodeVector(v)}}
	if admitted {
		f.Policy.Admission = &events.Admission{Score: 5, Threshold: 3, Scorer: "offline"}
	}
	return f
}

// feed applies payloads to m at consecutive revisions.
func feed(t *testing.T, m *rerank.Model, ps ...events.Payload) {
	t.Helper()
	for _, p := range ps {
		e, err := events.New(events.Meta{Source: "t", Actor: "u"}, p)
		if err != nil {
			t.Fatal(err)
		}
		revs[m]++
		if err := m.Apply(events.Record{Envelope: e, Revision: revs[m]}); err != nil {
			t.Fatal(err)
		}
	}
}

// revs is each model's log head: every model reads its log from 1.
var revs = map[*rerank.Model]uint64{}

func model(t *testing.T) *rerank.Model {
	t.Helper()
	m, err := rerank.New(rerank.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A pool: the fragment that holds the answer (worded unlike the question)
// and fragments that look like the question but say nothing.
func pool() []events.Payload {
	return []events.Payload{
		frag("relevant", "Lyon dining", "bouchons serve quenelles and andouillette", false, "x"),
		frag("d1", "where to eat in Lyon tonight", "anyone have tips?", false, "x"),
		frag("d2", "where to eat in Lyon cheaply", "asking for a friend", false, "x"),
		frag("d3", "where to eat near Lyon station", "no idea yet", false, "x"),
	}
}

// Eq. 2 (proxy) and Eq. 3: the admitted memory's answer is held by the
// relevant fragment, which becomes positive with the gradient step of the
// logistic loss; the look-alikes become negative.
func TestAdmittedFragmentLabelsThePool(t *testing.T) {
	m := model(t)
	feed(t, m, pool()...)
	feed(t, m, frag("m", "where to eat in Lyon", "try the bouchons for quenelles", true, "x"))
	got := map[string]float64{}
	for _, c := range m.Taught("m") {
		got[c.Candidate] = c.Delta
	}
	if len(got) != 3 || got["relevant"] <= 0 {
		// v = 4, but only one candidate holds any of the answer: one
		// positive, and the two look-alikes that rank last negative.
		t.Fatalf("contributions %v: want the relevant fragment positive and 3 labelled", got)
	}
	negatives := 0
	for id, d := range got {
		if id != "relevant" && d < 0 {
			negatives++
		}
	}
	if negatives != 2 {
		t.Fatalf("contributions %v: want v/2 = 2 negatives among the look-alikes", got)
	}
	// The step is Eq. 3's: η·(y − σ(w·(s − s0)))/v with s the cosine of the
	// keys (computed here in float64, in the model in float32).
	cfg := rerank.DefaultConfig()
	s := cosine(emb.Vector("where to eat in Lyon"), emb.Vector("Lyon dining"))
	want := cfg.Rate * (1 - 1/(1+math.Exp(-cfg.Weight*(s-cfg.Offset)))) / float64(cfg.Labelled)
	if math.Abs(got["relevant"]-want) > 1e-5 {
		t.Fatalf("δ(relevant) = %v, want η(1−σ(x))/v = %v", got["relevant"], want)
	}
	// A fragment written without a gate teaches nothing.
	feed(t, m, frag("plain", "where to eat in Lyon", "try the bouchons for quenelles", false, "x"))
	if m.Taught("plain") != nil || m.Lessons() != 1 {
		t.Fatalf("an ungated shared write learned: %v", m.Taught("plain"))
	}
}

func cosine(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d // hashing vectors are unit length
}

// A lesson learns only from the pool within its provenance: what m
// labels, and the statistics it ranks with, are visible to whoever may
// read m.
func TestLessonLearnsOnlyWithinItsProvenance(t *testing.T) {
	m := model(t)
	feed(t, m, frag("wider", "Lyon dining", "bouchons serve quenelles", false, "x", "y"),
		frag("m", "where to eat in Lyon", "try the bouchons for quenelles", true, "x"))
	if got := m.Taught("m"); got != nil {
		t.Fatalf("a lesson of agents {x} learned about a fragment of {x,y}: %v", got)
	}
}

// The re-ranker raises what the pool taught only for readers admitted to
// the lesson; a reader who is not keeps the similarity order.
func TestRerankCountsOnlyAdmittedLessons(t *testing.T) {
	m := model(t)
	feed(t, m, pool()...)
	feed(t, m, frag("m", "where to eat in Lyon", "try the bouchons for quenelles", true, "x"))
	q := emb.Vector("where to eat in Lyon?")
	var cands []rerank.Candidate
	for _, c := range []struct{ id, key string }{{"d1", "where to eat in Lyon tonight"}, {"d2", "where to eat in Lyon cheaply"},
		{"d3", "where to eat near Lyon station"}, {"relevant", "Lyon dining"}} {
		cands = append(cands, rerank.Candidate{ID: c.id, Score: float32(cosine(q, emb.Vector(c.key)))})
	}
	slices.SortFunc(cands, func(a, b rerank.Candidate) int { return cmp.Compare(b.Score, a.Score) })
	t.Logf("similarity order: %v", cands)
	none, n0 := m.Rerank(q, emb.Model(), cands, func(access.Provenance) bool { return false })
	all, n1 := m.Rerank(q, emb.Model(), cands, func(access.Provenance) bool { return true })
	if n0 != 0 || n1 != 1 {
		t.Fatalf("lessons counted: %d for a reader admitted to none, %d for one admitted to the only one", n0, n1)
	}
	if !slices.Equal(none, cands) || cands[0].ID == "relevant" {
		t.Fatalf("a reader admitted to no lesson must keep the similarity order: %v", none)
	}
	if all[0].ID != "relevant" {
		t.Fatalf("a reader admitted to the lesson must see the relevant fragment first: %v", all)
	}
	if other, _ := m.Rerank(q, "another-model", cands, func(access.Provenance) bool { return true }); !slices.Equal(other, cands) {
		t.Fatalf("a query of another embedder must not apply lessons keyed by this one: %v", other)
	}
}
