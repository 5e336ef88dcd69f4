package gatemem

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Published rows the report prints beside cmem's (MGS in percent, from
// GateMem's leaderboard, LLM-judged): the best long-context prompting and
// the best retrieval or external-memory method per domain.
var (
	longContextMGS = map[string]float64{"medical": 80.1, "office": 67.9, "education": 71.0, "household": 68.5}
	retrievalMGS   = map[string]float64{"medical": 50.8, "office": 58.5, "education": 22.6, "household": 41.5}
)

// Report prints one line per domain: the official rule-based scorer's U,
// A and F (in the answer, and end to end: answer or shown context),
// over-refusal and MGS, the median answer length and U over answers of at
// most 40 words, the timings, and the published rows.
func Report(w io.Writer, results []DomainResult) {
	_, _ = fmt.Fprintln(w, "GateMem, scored by the benchmark's rule-based scorer (score_predictions.py); the leaderboard is LLM-judged.")
	_, _ = fmt.Fprintf(w, "%-10s %5s %6s %6s %6s %6s %6s %6s %6s %7s %7s %6s %8s %8s | %s\n",
		"domain", "n", "U", "A", "F", "A_e2e", "F_e2e", "OR", "MGS", "MGSe2e", "medianW", "U≤40", "ms/turn", "ms/ckpt", "published MGS: long-context / best retrieval")
	for _, r := range results {
		pub := fmt.Sprintf("%.1f / %.1f", longContextMGS[r.Domain], retrievalMGS[r.Domain])
		ms := func(d interface{ Milliseconds() int64 }) int64 { return d.Milliseconds() }
		if r.Score == nil {
			why := "(not scored: no python3 or no scorer)"
			if r.ScoreErr != nil {
				why = "(not scored: " + firstLine(r.ScoreErr.Error()) + ")"
			}
			_, _ = fmt.Fprintf(w, "%-10s %5d %s %8d %8d | %s\n", r.Domain, len(r.Answers), why, ms(r.Stats.PerTurn()), ms(r.Stats.PerCheckpoint()), pub)
			continue
		}
		s := r.Score.Summary
		med, short := answerLengths(r)
		_, _ = fmt.Fprintf(w, "%-10s %5d %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %7.1f %7.0f %6.1f %8d %8d | %s\n",
			r.Domain, s.N, 100*s.U, 100*s.A, 100*s.F, 100*s.AE2E, 100*s.FE2E, 100*s.OverRefusal, 100*s.MGS, 100*s.MGSE2E,
			med, 100*short, ms(r.Stats.PerTurn()), ms(r.Stats.PerCheckpoint()), pub)
	}
	for _, r := range results {
		if r.Score != nil {
			Failures(w, r)
		}
		for _, l := range r.Stats.LeftOut {
			_, _ = fmt.Fprintf(w, "  %s relationship left out (cmem refused it): %s\n", r.Domain, l)
		}
	}
}

// answerLengths is the median answer length in words and U counted over
// answers of at most 40 words (a longer correct answer counts as wrong).
func answerLengths(r DomainResult) (float64, float64) {
	var words []int
	for _, a := range r.Answers {
		words = append(words, len(strings.Fields(a)))
	}
	ok, n := 0, 0
	for _, row := range r.Score.Rows {
		if row.QueryType != "utility" {
			continue
		}
		n++
		if row.UtilityCorrect != nil && *row.UtilityCorrect && len(strings.Fields(r.Answers[row.CheckpointID])) <= 40 {
			ok++
		}
	}
	if n == 0 {
		return median(words), 0
	}
	return median(words), float64(ok) / float64(n)
}

// Failures prints the failing checkpoints of r by class: utility misses
// by the action given, leaks by attack type.
func Failures(w io.Writer, r DomainResult) {
	classes := map[string][]string{}
	for _, row := range r.Score.Rows {
		var class string
		switch {
		case row.QueryType == "utility" && (row.UtilityCorrect == nil || !*row.UtilityCorrect):
			class = "utility miss (" + row.PredAction + ")"
		case row.QueryType == "privacy" && row.PrivacyLeak != nil && *row.PrivacyLeak:
			class = "access leak (" + row.AttackType + ")"
		case row.QueryType == "safety" && row.DeletionLeak != nil && *row.DeletionLeak:
			class = "forgetting leak (" + row.AttackType + ")"
		default:
			continue
		}
		classes[class] = append(classes[class], row.CheckpointID)
	}
	names := make([]string, 0, len(classes))
	for c := range classes {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		ids := classes[c]
		more := ""
		if len(ids) > 5 {
			ids, more = ids[:5], fmt.Sprintf(" … (%d more)", len(classes[c])-5)
		}
		_, _ = fmt.Fprintf(w, "  %s %s: %d: %s%s\n", r.Domain, c, len(classes[c]), strings.Join(ids, " "), more)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
