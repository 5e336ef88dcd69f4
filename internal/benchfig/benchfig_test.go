package benchfig_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
)

func TestRecordedFiguresMakeOneTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "figs.jsonl")
	t.Setenv(benchfig.EnvFile, path)
	benchfig.Record(t, benchfig.Figure{Name: "rebuild", Value: 140e3, Unit: "events/s", Baseline: "ordered read", BaselineValue: 200e3, Goal: "≥ 0.7×"})
	benchfig.Record(t, benchfig.Figure{Name: "view p99, 100k", Value: 4, Unit: "ms", Baseline: "brute force", BaselineValue: 2, LowerIsBetter: true, Goal: "< 2 ms"})
	benchfig.Record(t, benchfig.Figure{Name: "rebuild", Value: 150e3, Unit: "events/s", Baseline: "ordered read", BaselineValue: 200e3, Goal: "≥ 0.7×"})
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := benchfig.Read(f)
	_ = f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 || figs[0].Value != 150e3 {
		t.Fatalf("figures = %+v, want the rerun to replace the first", figs)
	}
	if r := figs[0].Ratio(); r != 0.75 {
		t.Fatalf("rate ratio = %v, want 0.75", r)
	}
	if r := figs[1].Ratio(); r != 0.5 {
		t.Fatalf("latency ratio = %v, want 0.5 (lower is better)", r)
	}
	var out bytes.Buffer
	if err := benchfig.WriteTable(&out, figs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[2], "| 0.75 |") || !strings.Contains(lines[3], "| 0.50 |") {
		t.Fatalf("table:\n%s", out.String())
	}
}

// TestProcessCPUGrowsWithWork: CPU time spent spinning shows up.
func TestProcessCPUGrowsWithWork(t *testing.T) {
	before := benchfig.ProcessCPU()
	x, stop := 0, time.Now().Add(30*time.Second)
	for deadline := before + 20*time.Millisecond; benchfig.ProcessCPU() < deadline && time.Now().Before(stop); x++ {
	}
	if after := benchfig.ProcessCPU(); after-before < 20*time.Millisecond || x == 0 {
		t.Fatalf("ProcessCPU moved %v after %d spins", after-before, x)
	}
}
