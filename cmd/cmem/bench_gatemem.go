package main

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/cmem/cmem/experiments/gatemem"
)

// benchGatemem is `cmem bench gatemem -data DIR -domains office,medical
// -out OUT`: the GateMem benchmark against a fresh embedded cmem per
// episode, scored by the benchmark's own scorer when python3 is there.
func benchGatemem(args []string, stdout io.Writer) error {
	var cfg gatemem.Config
	fs := flag.NewFlagSet("bench gatemem", flag.ContinueOnError)
	fs.StringVar(&cfg.Data, "data", "", "GateMem's bench/data directory: <domain>/episodes.jsonl and checkpoints.jsonl (required)")
	domains := fs.String("domains", strings.Join(gatemem.DefaultDomains, ","), "domains to run, comma-separated")
	fs.StringVar(&cfg.Out, "out", "", "output directory: <domain>/predictions.jsonl and the scorer's files (required)")
	fs.IntVar(&cfg.Episodes, "episodes", 0, "at most this many episodes per domain (0: all)")
	fs.StringVar(&cfg.ScoreData, "score-data", "", "directory with the hidden checkpoints to score against (default -data)")
	fs.StringVar(&cfg.Scorer, "scorer", "", "GateMem's score_predictions.py (default: -score-data/../scripts/score_predictions.py)")
	fs.StringVar(&cfg.Python, "python", "python3", "the Python that runs the scorer (it needs numpy, scikit-learn and tqdm)")
	quiet := fs.Bool("quiet", false, "no progress lines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg.Domains = list(*domains)
	if !*quiet {
		cfg.Progress = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := gatemem.Run(ctx, cfg)
	gatemem.Report(stdout, res)
	return err
}
