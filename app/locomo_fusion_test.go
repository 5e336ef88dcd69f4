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
	"github.com/cmem/cmem/vectors"
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
// cmem: the measurement that chose the view's fusion (vectors.HybridScore)
// on conversations 0-4 only; 5-9 were kept for the final check
// (TestLoCoMoViewRecall).
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
		ntok := make([]float64, len(c.Turns))
		for i := range c.Turns {
			ntok[i] = float64(vectors.ValueTokens(texts[i]))
		}
		fused := func(ix *textindex.Index, q string, qv []float32, alpha, k, lp float64) []string {
			l, v := lexScores(ix, q), cosines(fv, qv)
			s := make([]float64, len(l))
			for i := range s {
				s[i] = alpha*v[i] + (1-alpha)*l[i]/(l[i]+k)
				if lp > 0 {
					s[i] *= 1 - math.Exp(-ntok[i]/lp)
				}
			}
			return rankBy(s)
		}
		methods := []method{
			{"bm25 value (baseline)", func(q string, _ []float32) []string { return rankBy(lexScores(plain, q)) }},
			{"vec key (before)", func(_ string, qv []float32) []string { return rankBy(cosines(kv, qv)) }},
			{"vec key+value", func(_ string, qv []float32) []string { return rankBy(cosines(fv, qv)) }},
			{"bm25 key+value", func(q string, _ []float32) []string { return rankBy(lexScores(full, q)) }},
			{"bm25 key+value stem", func(q string, _ []float32) []string { return rankBy(lexScores(stem, q)) }},
			{"rrf c=60", func(q string, qv []float32) []string {
				lr, vr := rankOf(lexScores(stem, q)), rankOf(cosines(fv, qv))
				s := make([]float64, len(lr))
				for i := range s {
					if lr[i] > 0 {
						s[i] += 1 / (60 + float64(lr[i]))
					}
					s[i] += 1 / (60 + float64(vr[i]))
				}
				return rankBy(s)
			}},
			{"relative a=0.5", func(q string, qv []float32) []string {
				l, v := lexScores(stem, q), cosines(fv, qv)
				maxL, minV, maxV := slices.Max(l), slices.Min(v), slices.Max(v)
				s := make([]float64, len(l))
				for i := range s {
					if maxL > 0 {
						s[i] = 0.5 * l[i] / maxL
					}
					if maxV > minV {
						s[i] += 0.5 * (v[i] - minV) / (maxV - minV)
					}
				}
				return rankBy(s)
			}},
			{"absolute a=0.3 K=5", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.3, 5, 0) }},
			{"absolute a=0.5 K=5", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.5, 5, 0) }},
			{"absolute a=0.7 K=5", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.7, 5, 0) }},
			{"absolute a=0.5 K=5 prior 4", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.5, 5, 4) }},
			{"absolute a=0.5 K=5 prior 8", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.5, 5, 8) }},
			{"absolute a=0.5 K=5 prior 16", func(q string, qv []float32) []string { return fused(stem, q, qv, 0.5, 5, 16) }},
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
