package app_test

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/internal/textindex"
	"github.com/cmem/cmem/vectors/vectorstest"
)

// convRange reads CMEM_LOCOMO_CONVS ("0-4", default every conversation).
func convRange(n int) (int, int) {
	lo, hi := 0, n-1
	if r := os.Getenv("CMEM_LOCOMO_CONVS"); r != "" {
		a, b, _ := strings.Cut(r, "-")
		lo, _ = strconv.Atoi(a)
		hi = lo
		if b != "" {
			hi, _ = strconv.Atoi(b)
		}
	}
	return lo, min(hi, n-1)
}

// TestLoCoMoFusion compares ranking formulas on LoCoMo's turns, outside
// cmem: the measurement that chose the view's fusion.
//
//	CMEM_LOCOMO=/tmp/locomo/data/multimodal_dialog/locomo10_v2 CMEM_LOCOMO_CONVS=0-4 \
//	  go test -run LoCoMoFusion -v ./app/
func TestLoCoMoFusion(t *testing.T) {
	convs := loadLoCoMo(t)
	emb := semantic.Must()
	lo, hi := convRange(len(convs))
	type method struct {
		name string
		rank func(q string, qv []float32) []string
	}
	sums := map[string]*[2]float64{}
	byCat := map[string]map[int]*[2]float64{}
	nq := 0
	catN := map[int]int{}
	var order []string
	for ci := lo; ci <= hi; ci++ {
		c := convs[ci]
		plain := textindex.New(textindex.Config{})
		full := textindex.New(textindex.Config{})
		stem := textindex.New(textindex.Config{Stem: true})
		keys, texts := make([]string, len(c.Turns)), make([]string, len(c.Turns))
		for i, tu := range c.Turns {
			keys[i] = tu.Speaker + ", " + tu.Date
			texts[i] = tu.Speaker + ": " + tu.Text
			plain.Add(tu.DiaID, texts[i])
			full.Add(tu.DiaID, keys[i]+"\n"+texts[i])
			stem.Add(tu.DiaID, keys[i]+"\n"+texts[i])
		}
		kv, _ := emb.Embed(t.Context(), keys)
		both := make([]string, len(texts))
		for i := range texts {
			both[i] = keys[i] + "\n" + texts[i]
		}
		fv, _ := emb.Embed(t.Context(), both)
		cosines := func(vs [][]float32, qv []float32) []float64 {
			out := make([]float64, len(vs))
			for i, v := range vs {
				out[i] = vectorstest.Cosine(qv, v)
			}
			return out
		}
		lexScores := func(ix *textindex.Index, q string) []float64 {
			out := make([]float64, len(c.Turns))
			pos := map[string]int{}
			for i, tu := range c.Turns {
				pos[tu.DiaID] = i
			}
			for _, h := range ix.Search(q, len(c.Turns), nil) {
				out[pos[h.ID]] = h.Score
			}
			return out
		}
		rankBy := func(score []float64) []string {
			idx := make([]int, len(score))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
			out := make([]string, 0, 10)
			for _, i := range idx[:min(10, len(idx))] {
				out = append(out, c.Turns[i].DiaID)
			}
			return out
		}
		rankOf := func(score []float64) []int { // 1-based rank, 0 = no score
			idx := make([]int, len(score))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
			r := make([]int, len(score))
			for n, i := range idx {
				if score[i] > 0 {
					r[i] = n + 1
				}
			}
			return r
		}
		_ = rankOf
		methods := []method{
			{"bm25 value", func(q string, _ []float32) []string { return rankBy(lexScores(plain, q)) }},
			{"vec key", func(_ string, qv []float32) []string { return rankBy(cosines(kv, qv)) }},
			{"vec key+value", func(_ string, qv []float32) []string { return rankBy(cosines(fv, qv)) }},
			{"bm25 key+value", func(q string, _ []float32) []string { return rankBy(lexScores(full, q)) }},
			{"bm25 stem", func(q string, _ []float32) []string { return rankBy(lexScores(stem, q)) }},
		}
		variants := map[string]*textindex.Index{"stem": stem}
		for _, v := range []struct {
			n   string
			cfg textindex.Config
		}{{"b=0.9", textindex.Config{Stem: true, B: 0.9}}, {"b=1", textindex.Config{Stem: true, B: 1}}, {"k1=2", textindex.Config{Stem: true, K1: 2}}, {"b=0.5", textindex.Config{Stem: true, B: 0.5}}} {
			ix := textindex.New(v.cfg)
			for i, tu := range c.Turns {
				ix.Add(tu.DiaID, both[i])
			}
			variants[v.n] = ix
		}
		ntok := make([]float64, len(c.Turns))
		for i := range c.Turns {
			ntok[i] = float64(len(textindex.Tokenize(texts[i])))
		}
		for _, vn := range []string{"stem", "b=0.9", "b=1", "k1=2", "b=0.5"} {
			ix := variants[vn]
			for _, lp := range []float64{0, 4, 8, 16} {
				methods = append(methods, method{fmt.Sprintf("%s abs .5/5 lp=%v", vn, lp), func(q string, qv []float32) []string {
					l, v := lexScores(ix, q), cosines(fv, qv)
					s := make([]float64, len(l))
					for i := range s {
						s[i] = 0.5*v[i] + 0.5*l[i]/(l[i]+5)
						if lp > 0 {
							s[i] *= 1 - math.Exp(-ntok[i]/lp)
						}
					}
					return rankBy(s)
				}})
			}
		}
		if order == nil {
			for _, m := range methods {
				order = append(order, m.name)
			}
		}
		for _, qa := range c.QA {
			qv, _ := emb.Embed(t.Context(), []string{qa.Question})
			nq++
			catN[qa.Category]++
			for _, m := range methods {
				r := m.rank(qa.Question, qv[0])
				if sums[m.name] == nil {
					sums[m.name] = &[2]float64{}
					byCat[m.name] = map[int]*[2]float64{}
				}
				r5, r10 := recallAt(r, qa.Evidence, 5), recallAt(r, qa.Evidence, 10)
				sums[m.name][0] += r5
				sums[m.name][1] += r10
				if byCat[m.name][qa.Category] == nil {
					byCat[m.name][qa.Category] = &[2]float64{}
				}
				byCat[m.name][qa.Category][0] += r5
				byCat[m.name][qa.Category][1] += r10
			}
		}
	}
	t.Logf("conversations %d-%d, %d questions", lo, hi, nq)
	t.Logf("%-24s %6s %6s | r@10 by category 1 2 3 4", "method", "r@5", "r@10")
	for _, name := range order {
		s := sums[name]
		line := fmt.Sprintf("%-24s %6.3f %6.3f |", name, s[0]/float64(nq), s[1]/float64(nq))
		for cat := 1; cat <= 4; cat++ {
			if c := byCat[name][cat]; c != nil {
				line += fmt.Sprintf(" %.3f", c[1]/float64(catN[cat]))
			}
		}
		t.Log(line)
	}
}
