package benchfig

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
)

// EnvFile names the file figures are appended to (JSON lines). Unset, a
// figure is only logged.
const EnvFile = "CMEM_BENCH_FIGURES"

// Figure is one measured figure next to its engine's baseline.
type Figure struct {
	// Name says what was measured, e.g. "commands over HTTP, 64 clients".
	Name string `json:"name"`
	// Value is cmem's figure; Unit its unit ("events/s", "ms p99").
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Baseline says what the engine underneath did in the same run
	// ("raw JetStream async publish"); BaselineValue is in Unit too.
	// An empty Baseline means the figure has no engine to compare with.
	Baseline      string  `json:"baseline,omitempty"`
	BaselineValue float64 `json:"baseline_value,omitempty"`
	// LowerIsBetter flips the ratio so that 1.0 is parity and more is
	// better either way: Value/Baseline for rates, Baseline/Value for
	// latencies and sizes.
	LowerIsBetter bool `json:"lower_is_better,omitempty"`
	// Goal is the target as written in the issue, e.g. "≥ 0.7×" or "< 2 ms".
	Goal string `json:"goal,omitempty"`
	// Source is the benchmark that measured it (filled by Record).
	Source string `json:"source,omitempty"`
}

// Ratio is the figure against its baseline, oriented so that higher is
// better; 0 when there is no baseline.
func (f Figure) Ratio() float64 {
	if f.Baseline == "" || f.BaselineValue == 0 || f.Value == 0 {
		return 0
	}
	if f.LowerIsBetter {
		return f.BaselineValue / f.Value
	}
	return f.Value / f.BaselineValue
}

var mu sync.Mutex

// Record logs f on b and appends it to the file named by CMEM_BENCH_FIGURES.
// It fails the benchmark if the file cannot be written: a figure that
// silently goes missing from the table is worse than a failed run.
func Record(b testing.TB, f Figure) {
	b.Helper()
	f.Source = b.Name()
	msg := fmt.Sprintf("figure %q: %.4g %s", f.Name, f.Value, f.Unit)
	if f.Baseline != "" {
		msg += fmt.Sprintf("; %s: %.4g; ratio %.2f", f.Baseline, f.BaselineValue, f.Ratio())
	}
	if f.Goal != "" {
		msg += " (goal " + f.Goal + ")"
	}
	b.Log(msg)
	path := os.Getenv(EnvFile)
	if path == "" {
		return
	}
	if err := appendLine(path, f); err != nil {
		b.Fatalf("benchfig: %v", err)
	}
}

func appendLine(path string, f Figure) error {
	line, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encode figure: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	file, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := file.Write(append(line, '\n')); err != nil {
		_ = file.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// Read decodes the figures written by Record, in order. A later figure with
// the same Name replaces an earlier one (a benchmark run twice reports its
// last run).
func Read(r io.Reader) ([]Figure, error) {
	dec := json.NewDecoder(r)
	var out []Figure
	at := map[string]int{}
	for {
		var f Figure
		if err := dec.Decode(&f); err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, fmt.Errorf("decode figure %d: %w", len(out)+1, err)
		}
		if i, ok := at[f.Name]; ok {
			out[i] = f
			continue
		}
		at[f.Name] = len(out)
		out = append(out, f)
	}
}

// WriteTable prints figs as one Markdown table.
func WriteTable(w io.Writer, figs []Figure) error {
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	}
	p("| figure | cmem | baseline (same run) | ratio | goal |\n| --- | --- | --- | --- | --- |\n")
	for _, f := range figs {
		base, ratio := "—", "—"
		if f.Baseline != "" {
			base = fmt.Sprintf("%s: %s %s", f.Baseline, num(f.BaselineValue), f.Unit)
			ratio = fmt.Sprintf("%.2f", f.Ratio())
		}
		goal := f.Goal
		if goal == "" {
			goal = "—"
		}
		p("| %s | %s %s | %s | %s | %s |\n", f.Name, num(f.Value), f.Unit, base, ratio, goal)
	}
	return err
}

// num prints a figure with as many digits as it deserves.
func num(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}
