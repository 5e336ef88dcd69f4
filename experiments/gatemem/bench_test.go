package gatemem

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/experiments/embedded"
	"github.com/cmem/cmem/internal/benchfig"
)

// BenchmarkGovernedTurnAndCheckpoint prints what governance costs: the
// harness's per-turn time (POST /v1/turns: scope, sensitivity, spoken
// governance, the fragment and its redacted summary) and per-checkpoint
// time (a governed query and its outcome) on the small synthetic episode
// shipped in testdata, beside a plain fragment write (POST /v1/fragments)
// of the same texts and a plain query (POST /v1/queries) of the same
// questions on an ungoverned embedded cmem, measured in the same run.
func BenchmarkGovernedTurnAndCheckpoint(b *testing.B) {
	ctx := context.Background()
	data := "testdata/stripped"
	eps, err := readJSONL[Episode](filepath.Join(data, "office", "episodes.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	cps, err := readJSONL[Checkpoint](filepath.Join(data, "office", "checkpoints.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var governed Stats
	var plainWrite, plainQuery time.Duration
	var writes, queries int
	b.ResetTimer()
	for range b.N {
		res, err := Run(ctx, Config{Data: data, Domains: []string{"office"}, Out: b.TempDir(), Scorer: filepath.Join(b.TempDir(), "none.py")})
		if err != nil {
			b.Fatal(err)
		}
		s := res[0].Stats
		governed.Turns, governed.TurnTime = governed.Turns+s.Turns, governed.TurnTime+s.TurnTime
		governed.Checkpoints, governed.AskTime = governed.Checkpoints+s.Checkpoints, governed.AskTime+s.AskTime
		w, q, nw, nq := plainRun(ctx, b, eps, cps)
		plainWrite, plainQuery, writes, queries = plainWrite+w, plainQuery+q, writes+nw, queries+nq
	}
	b.StopTimer()
	if governed.Turns == 0 || governed.Checkpoints == 0 || writes == 0 || queries == 0 {
		b.Fatalf("nothing measured: %+v, %d writes, %d queries", governed, writes, queries)
	}
	ms := func(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	benchfig.Record(b, benchfig.Figure{Name: "GateMem governed turn (POST /v1/turns, synthetic episode)", Value: ms(governed.TurnTime, governed.Turns), Unit: "ms/turn",
		Baseline: "plain fragment write of the same text (POST /v1/fragments)", BaselineValue: ms(plainWrite, writes), LowerIsBetter: true})
	benchfig.Record(b, benchfig.Figure{Name: "GateMem governed checkpoint (query + outcome, synthetic episode)", Value: ms(governed.AskTime, governed.Checkpoints), Unit: "ms/checkpoint",
		Baseline: "plain query of the same question (POST /v1/queries)", BaselineValue: ms(plainQuery, queries), LowerIsBetter: true})
}

// plainRun writes the episodes' turns as plain fragments through one
// agent and asks the checkpoints' questions as plain queries, on a fresh
// ungoverned embedded cmem; it returns the time spent in each and counts.
func plainRun(ctx context.Context, b *testing.B, eps []Episode, cps []Checkpoint) (time.Duration, time.Duration, int, int) {
	b.Helper()
	n, err := embedded.Start(ctx, embedded.Options{Source: "cmem/gatemem-bench", ReadWait: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	a, err := newAPI(n.BaseURL, n.Token, time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	var u struct {
		Token string `json:"token"`
	}
	must := func(_ int, err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(a.do(ctx, a.admin, http.MethodPost, "/v1/users", map[string]string{"id": "plain", "role": "user"}, &u))
	must(a.do(ctx, a.admin, http.MethodPost, "/v1/agents", map[string]string{"id": "notes", "description": "the team's notes"}, nil))
	must(a.do(ctx, a.admin, http.MethodPut, "/v1/grants/user-agent/plain/notes", nil, nil))
	var write, query time.Duration
	writes, queries := 0, 0
	for _, ep := range eps {
		for _, t := range ep.Turns {
			text := strings.TrimSpace(t.Text)
			if text == "" {
				continue
			}
			start := time.Now()
			must(a.do(ctx, u.Token, http.MethodPost, "/v1/fragments", map[string]string{"agent": "notes", "key": text, "value": text, "tier": "shared"}, nil))
			write += time.Since(start)
			writes++
		}
	}
	for _, c := range cps {
		start := time.Now()
		if _, err := a.ask(ctx, u.Token, c.Query); err != nil {
			b.Fatal(err)
		}
		query += time.Since(start)
		queries++
	}
	return write, query, writes, queries
}
