package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/cmem/cmem/experiments/scenario"
)

// scenarioCmd is `cmem scenario 1|2|3 -out DIR`: one of the paper's
// experiments against a running cmem (-url, -token) or an embedded one.
func scenarioCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return errors.New("usage: cmem scenario 1|2|3 -out DIR [flags]; 'cmem scenario 1 -h' lists the flags")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("scenario %q: want 1, 2 or 3", args[0])
	}
	d := scenario.Defaults
	cfg := scenario.Config{Scenario: n, Progress: os.Stderr}
	fs := flag.NewFlagSet("scenario", flag.ExitOnError)
	fs.StringVar(&cfg.Out, "out", "", "output directory for report.md, results.json and the SVG charts (required)")
	overlaps := fs.String("overlap", "0,25,50,75", "scenario 1: query overlaps ρ in percent")
	fs.IntVar(&cfg.Users, "users", d.Users, "scenarios 1 and 3: users")
	fs.IntVar(&cfg.QueriesPerUser, "queries", d.QueriesPerUser, "scenario 1: queries per user at each overlap")
	fs.IntVar(&cfg.Objectives, "objectives", d.Objectives, "scenario 2: business objectives (each split into the four roles' subtasks)")
	fs.IntVar(&cfg.PerCategory, "per-category", d.PerCategory, "scenario 3: queries per user per category in each of the nine blocks")
	fs.Uint64Var(&cfg.Seed, "seed", d.Seed, "seed of the generated corpora, plans and access graphs")
	fs.BoolVar(&cfg.Isolated, "isolated", d.Isolated, "also run the isolated baseline (per-user agent copies) in scenarios 1 and 2")
	fs.StringVar(&cfg.Provenance, "provenance", "transitive", "provenance policy of the run's agents: transitive (cmem's default) or direct (the paper's)")
	fs.StringVar(&cfg.URL, "url", "", "base URL of a running cmem; empty starts an embedded one on a temporary data dir")
	fs.StringVar(&cfg.Token, "token", env("CMEM_ADMIN_TOKEN", ""), "admin token of the running cmem (CMEM_ADMIN_TOKEN)")
	fs.StringVar(&cfg.NATSURL, "nats", env("CMEM_NATS_URL", ""), "NATS URL of the running cmem's bus; default its host on port 4222")
	fs.StringVar(&cfg.NATSToken, "nats-token", env("CMEM_NATS_READER_TOKEN", ""), "the running cmem's read-only bus credential, $CMEM_DATA/nats-reader.token (CMEM_NATS_READER_TOKEN)")
	coordination := fs.String("coordination", strings.Join(d.Coordination, ","), "scenario 2: coordination schemes to compare (centralized, decentralized, layered, shared_pool), each on the shared configuration")
	participants := fs.String("participants", strings.Join(d.Participants, ","), "scenario 2: participants of the non-centralized schemes: all (every agent the role may invoke), expert (those the coordinator picks), or both")
	quiet := fs.Bool("quiet", false, "no progress bar")
	_ = fs.Parse(args[1:])
	for _, s := range strings.Split(*overlaps, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-overlap %q: %w", *overlaps, err)
		}
		cfg.Overlaps = append(cfg.Overlaps, v)
	}
	cfg.Coordination, cfg.Participants = list(*coordination), list(*participants)
	if *quiet {
		cfg.Progress = nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := scenario.Run(ctx, cfg)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(stdout, "scenario %d: %d queries in %.0f s, %d audited violations, %d uses outside the graph; wrote %s/{%s}\n",
		n, res.Queries, res.Seconds, res.Violations, res.OutsideGrant, cfg.Out, strings.Join(res.Files, ","))
	if res.Violations != 0 || res.OutsideGrant != 0 {
		return errors.New("scenario: the audit found uses that were not admissible")
	}
	return nil
}
