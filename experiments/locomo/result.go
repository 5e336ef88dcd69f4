package locomo

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Result is a run's outcome: every question's record and what the figures
// are computed from.
type Result struct {
	// Label names what answered (the model, or the offline default).
	Label   string
	K       int
	Depths  []int
	Answers bool
	// ObservedAt is whether the server took the turns' session dates as
	// observed_at.
	ObservedAt           bool
	Conversations, Turns int
	// Load is the time spent registering and writing the turns; Wall the
	// whole run's.
	Load, Wall time.Duration
	Records    []Record
}

// Row is the figures of one category, or of several ("overall" is
// categories 1–4, LoCoMo's usual headline: adversarial questions have no
// answer to score F1 against).
type Row struct {
	Name string
	// N is the questions, Evidence those with evidence (recall's base).
	N, Evidence int
	// Recall is the mean evidence recall by "cmem@5", "bm25@10", ….
	Recall map[string]float64
	// F1 is the mean score by LoCoMo's rules (category 5: the share of
	// answers saying the conversation does not tell).
	F1 float64
}

// Rows returns a row per category present, then "overall 1-4".
func (r *Result) Rows() []Row {
	var rows []Row
	for c := 1; c <= 5; c++ {
		if row := r.row(Categories[c], func(x int) bool { return x == c }); row.N > 0 {
			rows = append(rows, row)
		}
	}
	return append(rows, r.row("overall 1-4", func(x int) bool { return x >= 1 && x <= 4 }))
}

func (r *Result) row(name string, in func(int) bool) Row {
	row := Row{Name: name, Recall: map[string]float64{}}
	for _, rec := range r.Records {
		if !in(rec.Category) {
			continue
		}
		row.N++
		row.F1 += rec.F1
		if rec.Recall != nil {
			row.Evidence++
			for k, v := range rec.Recall {
				row.Recall[k] += v
			}
		}
	}
	if row.N > 0 {
		row.F1 /= float64(row.N)
	}
	for k := range row.Recall {
		row.Recall[k] /= float64(row.Evidence)
	}
	return row
}

// Latency returns the p50 and p99 of the views' (or the answers')
// latencies in milliseconds.
func (r *Result) Latency(answers bool) (p50, p99 float64) {
	var ms []float64
	for _, rec := range r.Records {
		if answers {
			if rec.AnswerMS > 0 {
				ms = append(ms, rec.AnswerMS)
			}
		} else {
			ms = append(ms, rec.ViewMS)
		}
	}
	return quantile(ms, 0.5), quantile(ms, 0.99)
}

// quantile is the nearest-rank quantile of xs, 0 for none.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[max(0, int(math.Ceil(q*float64(len(s))))-1)]
}

// Write prints the figures as a Markdown table with the run's timings.
func (r *Result) Write(w io.Writer) {
	_, _ = fmt.Fprintf(w, "LoCoMo: %d conversations, %d turns, %d questions; %s; observed_at %s\n\n",
		r.Conversations, r.Turns, len(r.Records), r.Label, map[bool]string{true: "sent", false: "not accepted by this server"}[r.ObservedAt])
	head := []string{"category", "n"}
	for _, k := range r.Depths {
		head = append(head, fmt.Sprintf("cmem R@%d", k), fmt.Sprintf("BM25 R@%d", k), fmt.Sprintf("ratio@%d", k))
	}
	if r.Answers {
		head = append(head, "answer F1")
	}
	_, _ = fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range r.Rows() {
		cells := []string{row.Name, fmt.Sprint(row.N)}
		for _, k := range r.Depths {
			c, b := row.Recall[fmt.Sprintf("cmem@%d", k)], row.Recall[fmt.Sprintf("bm25@%d", k)]
			ratio := "–"
			if b > 0 {
				ratio = fmt.Sprintf("%.2f", c/b)
			}
			cells = append(cells, fmt.Sprintf("%.3f", c), fmt.Sprintf("%.3f", b), ratio)
		}
		if r.Answers {
			cells = append(cells, fmt.Sprintf("%.3f", row.F1))
		}
		_, _ = fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	v50, v99 := r.Latency(false)
	_, _ = fmt.Fprintf(w, "\nview p50 %.1f ms, p99 %.1f ms", v50, v99)
	if r.Answers {
		a50, a99 := r.Latency(true)
		_, _ = fmt.Fprintf(w, "; answer p50 %.1f ms, p99 %.1f ms", a50, a99)
	}
	_, _ = fmt.Fprintf(w, "; load %.1f s; wall %.1f s\n", r.Load.Seconds(), r.Wall.Seconds())
	if r.Answers {
		_, _ = fmt.Fprintln(w, "answer F1: LoCoMo's token F1 (category 1 split on commas); adversarial: share answered \"not mentioned\"/\"no information available\"; overall excludes adversarial")
	}
}
