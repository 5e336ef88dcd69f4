package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/cmem/cmem/experiments/locomo"
)

// benchLocomoCmd is `cmem bench locomo -data PATH`: LoCoMo's conversations
// loaded through the HTTP API, every question asked of the memory view
// (evidence recall@k beside BM25) and as a query (answer F1).
func benchLocomoCmd(args []string, out io.Writer) error {
	var cfg locomo.Config
	fs := flag.NewFlagSet("bench locomo", flag.ContinueOnError)
	fs.StringVar(&cfg.Data, "data", "", "locomo10.json, one sample file, or a directory of them (required)")
	fs.StringVar(&cfg.URL, "url", "", "base URL of a running cmem; empty starts an embedded one on a temporary data dir")
	fs.StringVar(&cfg.Token, "token", env("CMEM_ADMIN_TOKEN", ""), "admin token of the running cmem (CMEM_ADMIN_TOKEN)")
	fs.IntVar(&cfg.K, "k", 10, "depth of the ranked lists; recall is printed at 5, 10 and k")
	fs.StringVar(&cfg.Conversations, "conversations", "", "conversations by index in the data: 0-9, 0,3,5 or 2; empty is all")
	fs.StringVar(&cfg.Key, "key", "text", "fragment key of a turn: text (speaker: text) or speaker-date (the content only in the value)")
	fs.IntVar(&cfg.Workers, "workers", 4, "writes, views or queries at once")
	fs.BoolVar(&cfg.NoAnswers, "no-answers", false, "ask the memory view only (recall), no queries")
	fs.StringVar(&cfg.Label, "label", "", "what answers, for the report (default: derived for an embedded cmem)")
	fs.StringVar(&cfg.Out, "out", "", "write one JSON line per question (question, gold, answer, hits with dialog ids, F1) to this file")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !*quiet {
		cfg.Progress = os.Stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := locomo.Run(ctx, cfg)
	if err != nil {
		return err
	}
	res.Write(out)
	if cfg.Out != "" {
		_, _ = fmt.Fprintf(out, "wrote %d questions to %s\n", len(res.Records), cfg.Out)
	}
	return nil
}
