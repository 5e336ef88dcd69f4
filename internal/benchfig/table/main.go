// Command table prints the figures `make bench` recorded (see package
// benchfig) as one Markdown table: go run ./internal/benchfig/table FILE.
package main

import (
	"fmt"
	"os"

	"github.com/cmem/cmem/internal/benchfig"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: table FIGURES.jsonl")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	figs, err := benchfig.Read(f)
	_ = f.Close() // read-only: a close error changes nothing read
	if err != nil {
		return err
	}
	return benchfig.WriteTable(os.Stdout, figs)
}
