package locomo

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/experiments/embedded"
)

// The harness end to end on the shipped conversation, in process: every
// figure it prints is recomputed here from the per-question records, and
// every hit is checked to be the turn the harness says it is.
func TestRunEmbedded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "q.jsonl")
	res, err := Run(ctx, Config{Data: "testdata/synthetic.json", Out: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, out)
}

// The same through -url against a running cmem, twice: the second run's
// users and agents must not collide with the first's, and each run sees
// only its own turns.
func TestRunAgainstURL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e, err := embedded.Start(ctx, embedded.Options{Source: "cmem/bench-locomo", ReadWait: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for run := range 2 {
		out := filepath.Join(t.TempDir(), "q.jsonl")
		res, err := Run(ctx, Config{Data: "testdata/synthetic.json", URL: e.BaseURL, Token: e.Token, Out: out, NoAnswers: run == 1})
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if res.Label != "cmem at "+e.BaseURL {
			t.Errorf("label %q", res.Label)
		}
		checkResult(t, res, out)
		if run == 1 {
			for _, r := range res.Records {
				if r.Answer != "" || r.AnswerMS != 0 {
					t.Fatalf("-no-answers asked %q", r.Question)
				}
			}
		}
	}
	if _, err := Run(ctx, Config{Data: "testdata/synthetic.json", URL: e.BaseURL, Token: "wrong"}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong admin token: %v", err)
	}
}

func checkResult(t *testing.T, res *Result, out string) {
	t.Helper()
	cs, err := Load("testdata/synthetic.json")
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	value, when := map[string]string{}, map[string]time.Time{}
	for _, s := range c.Sessions {
		for n, tr := range s.Turns {
			value[tr.DiaID], when[tr.DiaID] = turnValue(s, tr), turnTime(s.When, n)
		}
	}
	if !res.ObservedAt {
		t.Error("the server did not take observed_at")
	}
	if res.Conversations != 1 || res.Turns != 18 || len(res.Records) != len(c.QA) {
		t.Fatalf("%d conversations, %d turns, %d records", res.Conversations, res.Turns, len(res.Records))
	}
	for i, r := range res.Records {
		q := c.QA[i]
		if r.Question != q.Question || r.Category != q.Category || !slices.Equal(r.Evidence, q.Evidence) {
			t.Fatalf("record %d is not question %d: %+v", i, i, r)
		}
		if len(r.Hits) == 0 || len(r.Hits) > 10 || len(r.BM25) == 0 || len(r.BM25) > 10 {
			t.Errorf("%q: %d cmem hits, %d BM25 hits", r.Question, len(r.Hits), len(r.BM25))
		}
		var ranked []string
		for _, h := range r.Hits {
			// The harness's fragment → dialog id map names the turn the
			// server returned.
			if value[h.DiaID] != h.Value {
				t.Errorf("%q: hit %s is mapped to %s (%q) but holds %q", r.Question, h.Fragment, h.DiaID, value[h.DiaID], h.Value)
			}
			// The session's date, plus the turn's place in it, reached
			// the server as the fact's time.
			if !h.ObservedAt.Equal(when[h.DiaID]) {
				t.Errorf("%q: hit %s observed at %v, want %v", r.Question, h.DiaID, h.ObservedAt, when[h.DiaID])
			}
			ranked = append(ranked, h.DiaID)
		}
		for _, k := range []int{5, 10} {
			want := map[string]float64{"cmem": recallByHand(r.Evidence, ranked, k), "bm25": recallByHand(r.Evidence, r.BM25, k)}
			for sys, w := range want {
				if got := r.Recall[fmt.Sprintf("%s@%d", sys, k)]; got != w {
					t.Errorf("%q: %s@%d = %v, by hand %v", r.Question, sys, k, got, w)
				}
			}
		}
		if res.Answers {
			if r.Status != "answered" && r.Status != "failed" {
				t.Errorf("%q: status %q", r.Question, r.Status)
			}
			if want, _ := Score(r.Category, r.Answer, r.Gold); r.F1 != want || r.F1 < 0 || r.F1 > 1 {
				t.Errorf("%q: F1 %v, want %v", r.Question, r.F1, want)
			}
		}
	}
	// The table's rows are the means of the records.
	rows := res.Rows()
	overall := rows[len(rows)-1]
	if overall.Name != "overall 1-4" || overall.N != 9 || overall.Evidence != 9 {
		t.Fatalf("overall row %+v", overall)
	}
	var r10, b10, f1 float64
	for _, r := range res.Records {
		if r.Category <= 4 {
			r10 += r.Recall["cmem@10"] / 9
			b10 += r.Recall["bm25@10"] / 9
			f1 += r.F1 / 9
		}
	}
	if !near(overall.Recall["cmem@10"], r10) || !near(overall.Recall["bm25@10"], b10) || !near(overall.F1, f1) {
		t.Errorf("overall %+v, by hand cmem@10 %v bm25@10 %v F1 %v", overall, r10, b10, f1)
	}
	// 18 turns, 10 hits: any ranking finds some evidence; BM25 finds
	// Mrs. Okafor's and Porto's turns, whose words only they hold.
	if r10 <= 0 || b10 < 0.5 {
		t.Errorf("recall@10 cmem %v, BM25 %v", r10, b10)
	}
	var sb strings.Builder
	res.Write(&sb)
	for _, want := range []string{"| single-hop | 4 |", "| adversarial | 2 |", "| overall 1-4 | 9 |", "view p50"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, sb.String())
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Question != c.QA[n].Question {
			t.Fatalf("line %d: %v %q", n, err, r.Question)
		}
	}
	if n != len(c.QA) {
		t.Errorf("%d JSONL lines, want %d", n, len(c.QA))
	}
}

// recallByHand counts evidence ids in the first k entries, independently
// of Recall.
func recallByHand(ev, ranked []string, k int) float64 {
	n := 0
	for _, e := range ev {
		for i, id := range ranked {
			if i < k && id == e {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(ev))
}
