package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/internal/textindex"
)

// TestLoCoMoViewRecall writes every turn of LoCoMo's conversations as a
// shared fragment through the app (key: speaker and session date; value:
// "Speaker: text"), asks each question of the memory view (k_cross 10, the
// offline semantic embedder), and prints evidence recall@5 and @10 beside
// a plain BM25 (internal/textindex) over the same turns, per category.
//
//	CMEM_LOCOMO=/path/to/locomo10.json CMEM_LOCOMO_CONVS=0-4 go test -run LoCoMoViewRecall -v ./app/
func TestLoCoMoViewRecall(t *testing.T) {
	convs := loadLoCoMo(t)
	lo, hi := convRange(len(convs))
	ctx := context.Background()
	type sums struct{ view5, view10, bm5, bm10 float64 }
	total, byCat := sums{}, map[int]*sums{}
	n, catN := 0, map[int]int{}
	speakerTop, speakerTopBM, named := 0.0, 0.0, 0
	shortFirst, shortFirstBM := 0, 0 // questions whose first hit is a turn of at most five words
	for ci := lo; ci <= hi; ci++ {
		c := convs[ci]
		r := newRigOn(t, semantic.Must(), nil)
		speakers := map[string]string{} // name → user id
		for _, tu := range c.Turns {
			if _, ok := speakers[tu.Speaker]; !ok {
				speakers[tu.Speaker] = fmt.Sprintf("s%d", len(speakers))
			}
		}
		if _, err := r.app.RegisterAgent(ctx, admin, "chat", "the conversation", ""); err != nil {
			t.Fatal(err)
		}
		for _, u := range speakers {
			if _, _, err := r.app.RegisterUser(ctx, admin, u, "user"); err != nil {
				t.Fatal(err)
			}
			if _, err := r.app.SetGrant(ctx, admin, app.Edge{UserAgent: true, From: u, To: "chat"}, true); err != nil {
				t.Fatal(err)
			}
		}
		dia := map[string]string{} // fragment id → dialog id
		words := map[string]int{}  // dialog id → words of the turn
		bm := textindex.New(textindex.Config{})
		for _, tu := range c.Turns {
			value := tu.Speaker + ": " + tu.Text
			w, err := r.app.WriteFragment(ctx, domain.Identity{ID: speakers[tu.Speaker]}, app.WriteRequest{Agent: "chat",
				Key: tu.Speaker + ", " + tu.Date, Value: value, Tier: events.TierShared})
			if err != nil {
				t.Fatal(err)
			}
			dia[w.Fragments[0].ID] = tu.DiaID
			words[tu.DiaID] = len(strings.Fields(tu.Text))
			bm.Add(tu.DiaID, value)
		}
		asker := speakers[c.Turns[0].Speaker]
		for _, qa := range c.QA {
			v, err := r.app.MemoryView(ctx, domain.Identity{ID: asker}, app.ViewRequest{Agent: "chat", Query: qa.Question, KCross: 10})
			if err != nil {
				t.Fatal(err)
			}
			var got, base []string
			for _, f := range v.Shared {
				got = append(got, dia[f.ID])
			}
			for _, h := range bm.Search(qa.Question, 10, nil) {
				base = append(base, h.ID)
			}
			if len(got) > 0 && words[got[0]] <= 5 {
				shortFirst++
			}
			if len(base) > 0 && words[base[0]] <= 5 {
				shortFirstBM++
			}
			s := byCat[qa.Category]
			if s == nil {
				s = &sums{}
				byCat[qa.Category] = s
			}
			for _, acc := range []*sums{&total, s} {
				acc.view5 += recallAt(got, qa.Evidence, 5)
				acc.view10 += recallAt(got, qa.Evidence, 10)
				acc.bm5 += recallAt(base, qa.Evidence, 5)
				acc.bm10 += recallAt(base, qa.Evidence, 10)
			}
			n++
			catN[qa.Category]++
			// How much of the top 10 is the turns of a speaker the question names.
			for name := range speakers {
				if strings.Contains(qa.Question, name) {
					named++
					speakerTop += share(got, c, name)
					speakerTopBM += share(base, c, name)
					break
				}
			}
		}
	}
	t.Logf("conversations %d-%d, %d questions", lo, hi, n)
	t.Logf("all        view r@5 %.3f r@10 %.3f | bm25 r@5 %.3f r@10 %.3f | ratio@10 %.2f",
		total.view5/float64(n), total.view10/float64(n), total.bm5/float64(n), total.bm10/float64(n), total.view10/total.bm10)
	for cat := 1; cat <= 4; cat++ {
		s, m := byCat[cat], float64(catN[cat])
		if s == nil {
			continue
		}
		t.Logf("category %d view r@5 %.3f r@10 %.3f | bm25 r@5 %.3f r@10 %.3f | %d questions", cat, s.view5/m, s.view10/m, s.bm5/m, s.bm10/m, catN[cat])
	}
	t.Logf("questions whose first hit is a turn of at most five words: view %d, bm25 %d", shortFirst, shortFirstBM)
	if named > 0 {
		t.Logf("questions naming a speaker: %d; that speaker's share of the top 10: view %.2f, bm25 %.2f",
			named, speakerTop/float64(named), speakerTopBM/float64(named))
	}
}

// share is the part of ranked (dialog ids) spoken by name.
func share(ranked []string, c locomoConv, name string) float64 {
	if len(ranked) == 0 {
		return 0
	}
	by := map[string]string{}
	for _, tu := range c.Turns {
		by[tu.DiaID] = tu.Speaker
	}
	n := 0
	for _, d := range ranked {
		if by[d] == name {
			n++
		}
	}
	return float64(n) / float64(len(ranked))
}
