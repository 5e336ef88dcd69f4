package locomo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/experiments/locomo"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
)

// replayRecord is the part of a `cmem bench locomo -out` line the replay
// needs.
type replayRecord struct {
	Conversation string `json:"conversation"`
	Question     string `json:"question"`
	Category     int    `json:"category"`
	Gold         string `json:"gold"`
	Answer       string `json:"answer"`
	F1           float64
	Hits         []struct {
		Fragment   string    `json:"fragment"`
		DiaID      string    `json:"dia_id"`
		Score      *float32  `json:"score"`
		Value      string    `json:"value"`
		ObservedAt time.Time `json:"observed_at"`
	} `json:"cmem_hits"`
}

// replayLabelRE is the bench's value label "Speaker (date): ", which its
// fragment key (-key text) does not hold.
var replayLabelRE = regexp.MustCompile(`^([^(:]{1,40}) \([^()]{1,60}\): `)

// TestLoCoMoReplay (a tuning aid beside the harness, not a check CI
// counts) answers again, offline, the questions of a LoCoMo
// bench run (CMEM_LOCOMO_REPLAY: the -out JSONL of `cmem bench locomo`)
// from the memory view each question got there (its top 10 shared hits,
// with their scores and observed_at), with no tools, as the agent's turn
// does: the answerer can be tuned without loading the conversations
// again. It logs the F1 by category next to the run's, and fails when the
// replay's falls below the run's by more than 0.02 (a change to the
// answerer that lost what it had).
func TestLoCoMoReplay(t *testing.T) {
	src := os.Getenv("CMEM_LOCOMO_REPLAY")
	if src == "" {
		t.Skip("CMEM_LOCOMO_REPLAY (a `cmem bench locomo -out` file) not set")
	}
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	p, err := offline.New(offline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	type sums struct{ run, now, n float64 }
	by := map[int]*sums{}
	var out *os.File
	if dump := os.Getenv("CMEM_LOCOMO_REPLAY_OUT"); dump != "" {
		if out, err = os.Create(dump); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = out.Close() }()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r replayRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Category < 1 || r.Category > 4 {
			continue
		}
		var mem []llm.MemoryItem
		for _, h := range r.Hits {
			key := replayLabelRE.ReplaceAllString(h.Value, "$1: ")
			if i := strings.Index(key, " [shared "); i > 0 {
				key = key[:i]
			}
			var s float32
			if h.Score != nil {
				s = *h.Score
			}
			mem = append(mem, llm.MemoryItem{ID: h.Fragment, Key: key, Value: h.Value, Tier: "shared", Score: s, ObservedAt: h.ObservedAt})
		}
		res, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: r.Question, Memory: mem})
		if err != nil {
			t.Fatal(err)
		}
		now, _ := locomo.Score(r.Category, res.Response, r.Gold)
		run, _ := locomo.Score(r.Category, r.Answer, r.Gold)
		s := by[r.Category]
		if s == nil {
			s = &sums{}
			by[r.Category] = s
		}
		s.run, s.now, s.n = s.run+run, s.now+now, s.n+1
		if out != nil {
			b, _ := json.Marshal(map[string]any{"cat": r.Category, "q": r.Question, "gold": r.Gold, "was": r.Answer, "now": res.Response, "f1_was": run, "f1_now": now, "cited": res.Cited})
			_, _ = out.Write(append(b, '\n'))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var total sums
	cats := make([]int, 0, len(by))
	for c := range by {
		cats = append(cats, c)
	}
	sort.Ints(cats)
	for _, c := range cats {
		s := by[c]
		t.Logf("category %d: n %.0f  run F1 %.3f  replay F1 %.3f", c, s.n, s.run/s.n, s.now/s.n)
		total.run, total.now, total.n = total.run+s.run, total.now+s.now, total.n+s.n
	}
	if total.n == 0 {
		t.Fatal("no question of categories 1-4 in the file")
	}
	t.Logf("categories 1-4: n %.0f  run F1 %.3f  replay F1 %.3f", total.n, total.run/total.n, total.now/total.n)
	if total.now/total.n < total.run/total.n-0.02 {
		t.Fatalf("replay F1 %.3f below the run's %.3f", total.now/total.n, total.run/total.n)
	}
}
