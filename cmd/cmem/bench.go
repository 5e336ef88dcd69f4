package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// benches maps `cmem bench NAME` to its runner. A benchmark adds itself
// with one line here and its runner in a file of its own (bench_NAME.go).
var benches = map[string]func(args []string, out io.Writer) error{
	"locomo":  benchLocomoCmd,
	"gatemem": benchGatemem,
}

// benchCmd is `cmem bench NAME [flags]`: a public benchmark run against a
// running cmem (-url) or an embedded one.
func benchCmd(args []string, out io.Writer) error {
	names := make([]string, 0, len(benches))
	for n := range benches {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("usage: cmem bench %s [flags]; 'cmem bench NAME -h' lists the flags", strings.Join(names, "|"))
	}
	run, ok := benches[args[0]]
	if !ok {
		return errors.New("bench: unknown benchmark " + fmt.Sprintf("%q", args[0]) + "; want one of " + strings.Join(names, ", "))
	}
	return run(args[1:], out)
}
