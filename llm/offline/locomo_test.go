package offline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	porter "github.com/blevesearch/go-porterstemmer"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
)

// TestLoCoMoAnswerF1 feeds LoCoMo conversations 0-4 (snap-research/locomo,
// not vendored: set CMEM_LOCOMO to locomo10.json or to the folder of its
// per-conversation files 26.json … 43.json) through the offline answerer:
// each question (categories 1-4) gets the 10 turns a BM25 over the
// conversation ranks best as its memory, each with its session's date as
// observed_at, and no tools; the answer is scored by LoCoMo's F1
// (normalised, Porter-stemmed token F1; multi-hop answers split on
// commas; open-domain gold cut at ";"). Tuning uses these five
// conversations only. It logs the figures, and fails when the F1 falls
// below 0.1 — back towards paragraph answers (0.04 before spans).
func TestLoCoMoAnswerF1(t *testing.T) {
	src := os.Getenv("CMEM_LOCOMO")
	if src == "" {
		t.Skip("CMEM_LOCOMO (locomo10.json or its folder of conversations) not set")
	}
	convs := loadLoCoMo(t, src)
	p := newOffline(t, offline.Config{})
	var sum float64
	n := 0
	byCat := map[int][2]float64{}
	for _, c := range convs[:min(5, len(convs))] {
		idx := newBM25(c.turns)
		for _, qa := range c.qa {
			if qa.Category < 1 || qa.Category > 4 {
				continue
			}
			var mem []llm.MemoryItem
			for _, i := range idx.top(qa.Question, 10) {
				tu := c.turns[i]
				mem = append(mem, llm.MemoryItem{ID: tu.id, Key: tu.text, Value: tu.text, Score: 0.5, ObservedAt: tu.at})
			}
			res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: qa.Question, Memory: mem})
			if err != nil {
				t.Fatal(err)
			}
			gold := fmt.Sprint(qa.Answer)
			f := locomoScore(qa.Category, res.Response, gold)
			if os.Getenv("CMEM_LOCOMO_VERBOSE") != "" {
				t.Logf("cat %d f1 %.2f %q -> %q (gold %q)", qa.Category, f, qa.Question, res.Response, gold)
			}
			sum += f
			n++
			s := byCat[qa.Category]
			byCat[qa.Category] = [2]float64{s[0] + f, s[1] + 1}
		}
	}
	f1 := sum / float64(n)
	t.Logf("LoCoMo conversations 0-4, %d questions (categories 1-4): answer F1 %.3f", n, f1)
	for cat := 1; cat <= 4; cat++ {
		if s := byCat[cat]; s[1] > 0 {
			t.Logf("  category %d: F1 %.3f over %.0f", cat, s[0]/s[1], s[1])
		}
	}
	if f1 < 0.1 {
		t.Fatalf("answer F1 %.3f < 0.1", f1)
	}
}

type locomoTurn struct {
	id, text string
	at       time.Time
}

type locomoQA struct {
	Question string `json:"question"`
	Answer   any    `json:"answer"`
	Category int    `json:"category"`
}

type locomoConv struct {
	turns []locomoTurn
	qa    []locomoQA
}

func loadLoCoMo(t *testing.T, src string) []locomoConv {
	t.Helper()
	var raws []map[string]json.RawMessage
	if st, err := os.Stat(src); err == nil && st.IsDir() {
		files, _ := filepath.Glob(filepath.Join(src, "*.json"))
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			raws = append(raws, m)
		}
	} else {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		var list []struct {
			Conversation map[string]json.RawMessage `json:"conversation"`
			QA           json.RawMessage            `json:"qa"`
		}
		if err := json.Unmarshal(b, &list); err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			c.Conversation["qa"] = c.QA
			raws = append(raws, c.Conversation)
		}
	}
	var out []locomoConv
	for _, m := range raws {
		var c locomoConv
		if err := json.Unmarshal(m["qa"], &c.qa); err != nil {
			t.Fatal(err)
		}
		for s := 1; ; s++ {
			raw, ok := m[fmt.Sprintf("session_%d", s)]
			if !ok {
				break
			}
			var date string
			_ = json.Unmarshal(m[fmt.Sprintf("session_%d_date_time", s)], &date)
			at, _ := time.Parse("3:04 pm on 2 January, 2006", date)
			var turns []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
				Caption string `json:"blip_caption"`
			}
			if err := json.Unmarshal(raw, &turns); err != nil {
				t.Fatal(err)
			}
			for _, tu := range turns {
				text := tu.Speaker + ": " + tu.Text
				if tu.Caption != "" {
					text += " [shares " + tu.Caption + "]"
				}
				c.turns = append(c.turns, locomoTurn{id: tu.DiaID, text: text, at: at})
			}
		}
		out = append(out, c)
	}
	return out
}

// bm25 is a plain Okapi BM25 (k1 1.2, b 0.75) over the turns' content
// words.
type bm25 struct {
	docs [][]string
	df   map[string]int
	avg  float64
}

func newBM25(turns []locomoTurn) *bm25 {
	b := &bm25{df: map[string]int{}}
	total := 0
	for _, tu := range turns {
		ws := embedding.Tokenize(tu.text)
		b.docs = append(b.docs, ws)
		total += len(ws)
		seen := map[string]bool{}
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				b.df[w]++
			}
		}
	}
	b.avg = float64(total) / float64(max(1, len(turns)))
	return b
}

func (b *bm25) top(q string, k int) []int {
	qs := embedding.Tokenize(q)
	type hit struct {
		i int
		s float64
	}
	var hits []hit
	n := float64(len(b.docs))
	for i, d := range b.docs {
		tf := map[string]int{}
		for _, w := range d {
			tf[w]++
		}
		var s float64
		for _, w := range qs {
			if tf[w] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(b.df[w])+0.5)/(float64(b.df[w])+0.5))
			f := float64(tf[w])
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(len(d))/b.avg))
		}
		if s > 0 {
			hits = append(hits, hit{i, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].s > hits[j].s })
	var out []int
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, h.i)
	}
	return out
}

var articlesRE = regexp.MustCompile(`\b(a|an|the|and)\b`)

// locomoTokens is LoCoMo's normalize_answer and Porter stemming.
func locomoTokens(s string) []string {
	s = strings.ToLower(strings.ReplaceAll(s, ",", ""))
	s = strings.Map(func(r rune) rune {
		if r < 128 && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r) {
			return -1
		}
		return r
	}, s)
	s = articlesRE.ReplaceAllString(s, " ")
	f := strings.Fields(s)
	for i, w := range f {
		f[i] = porter.StemString(w)
	}
	return f
}

func tokenF1(pred, gold string) float64 {
	p, g := locomoTokens(pred), locomoTokens(gold)
	counts := map[string]int{}
	for _, t := range g {
		counts[t]++
	}
	same := 0
	for _, t := range p {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	pr, rc := float64(same)/float64(len(p)), float64(same)/float64(len(g))
	return 2 * pr * rc / (pr + rc)
}

func locomoScore(cat int, pred, gold string) float64 {
	switch cat {
	case 1:
		preds, golds := strings.Split(pred, ","), strings.Split(gold, ",")
		var sum float64
		for _, g := range golds {
			best := 0.0
			for _, p := range preds {
				best = max(best, tokenF1(strings.TrimSpace(p), strings.TrimSpace(g)))
			}
			sum += best
		}
		return sum / float64(len(golds))
	case 3:
		gold = strings.Split(gold, ";")[0]
	}
	return tokenF1(pred, gold)
}
