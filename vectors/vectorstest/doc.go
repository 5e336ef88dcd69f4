// Package vectorstest holds the contract every vectors.Store backend must
// pass (Run), and what that contract and the benchmarks are built from: a
// seeded generator of fragments, filters and query vectors with a realistic
// provenance mix (Gen), and an exact brute-force Reference that defines
// what a search must return.
//
// Backends call Run from their own _test.go with a constructor; a backend
// that fails it cannot be swapped in for another.
package vectorstest
