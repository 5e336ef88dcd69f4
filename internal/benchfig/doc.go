// Package benchfig owns the one report `make bench` ends with: every
// benchmark that measures a figure against its engine records it here
// (cmem's value, the baseline measured in the same run, and the goal), and
// the table command prints them all as one Markdown table.
//
// A benchmark calls Record; the figure goes to the benchmark's log (always
// printed for benchmarks) and, when CMEM_BENCH_FIGURES names a file, is
// appended to it as one JSON line. `go run ./internal/benchfig/table <file>`
// reads that file and prints the table.
package benchfig
