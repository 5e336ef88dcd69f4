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
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	figs, err := benchfig.Read(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := benchfig.WriteTable(os.Stdout, figs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
