package rerank_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/rerank"
)

// edges is a reader's permissions: the agents it may invoke (no resources).
type edges map[string]bool

func (e edges) Invokes(_, agent string) bool { return e[agent] }
func (e edges) Uses(string, string) bool     { return false }

// A reader's ranking under the model learned from the whole log is the
// ranking under a model that only ever saw the fragments the reader may
// see (written at the same revisions): nothing the reader may not see
// shapes it, neither through a lesson nor through the pool a lesson was
// labelled from. Random logs, random readers.
func TestRankingIsThatOfAModelOfTheVisibleLog(t *testing.T) {
	words := []string{"lyon", "paris", "food", "museum", "train", "bouchon", "quenelle", "louvre", "ticket", "night", "market", "river"}
	agents := []string{"a", "b", "c"}
	lessons, reordered := 0, 0
	for seed := range uint64(40) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		text := func(n int) string {
			var out []string
			for range n {
				out = append(out, words[rnd.IntN(len(words))])
			}
			return fmt.Sprint(out)
		}
		type written struct {
			f   *events.FragmentWritten
			rev uint64
		}
		var log []written
		for i := range 60 {
			var prov []string
			for _, a := range agents {
				if rnd.IntN(2) == 0 {
					prov = append(prov, a)
				}
			}
			if len(prov) == 0 {
				prov = []string{agents[rnd.IntN(len(agents))]}
			}
			log = append(log, written{frag(fmt.Sprint("f", i), text(3), text(4), i > 15 && rnd.IntN(2) == 0, prov...), uint64(i + 1)})
		}
		reader := edges{}
		for _, a := range agents {
			reader[a] = rnd.IntN(3) > 0
		}
		r := access.Reader{User: "u", Agent: "a"}
		admits := func(p access.Provenance) bool { return access.Admits(reader, r, p).OK }
		full, visible := model(t), model(t)
		var cands []rerank.Candidate
		for _, w := range log {
			apply(t, full, w.f, w.rev)
			if admits(access.Provenance{Agents: w.f.Agents, Resources: w.f.Resources}) {
				apply(t, visible, w.f, w.rev)
				cands = append(cands, rerank.Candidate{ID: w.f.ID, Score: rnd.Float32()})
			}
		}
		slices.SortFunc(cands, func(a, b rerank.Candidate) int { return cmp.Compare(b.Score, a.Score) })
		for range 5 {
			q := emb.Vector(text(3))
			got, n := full.Rerank(q, emb.Model(), cands, admits)
			want, nv := visible.Rerank(q, emb.Model(), cands, func(access.Provenance) bool { return true })
			if !slices.Equal(got, want) || n != nv {
				t.Fatalf("seed %d: the ranking depends on what the reader may not see:\n%v (%d lessons)\n%v (%d lessons)", seed, got, n, want, nv)
			}
			if lessons += n; !slices.Equal(got, cands) {
				reordered++
			}
		}
	}
	if lessons == 0 || reordered == 0 {
		t.Fatalf("the random logs taught nothing that changed a ranking (%d lessons counted, %d rankings changed)", lessons, reordered)
	}
	t.Logf("%d lessons counted, %d of 200 rankings changed", lessons, reordered)
}

func apply(t *testing.T, m *rerank.Model, f *events.FragmentWritten, rev uint64) {
	t.Helper()
	e, err := events.New(events.Meta{Source: "t", Actor: "u"}, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(events.Record{Envelope: e, Revision: rev}); err != nil {
		t.Fatal(err)
	}
}
