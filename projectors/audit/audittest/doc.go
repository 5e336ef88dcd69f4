// Package audittest holds the contract every audit.Backend must pass
// (Run), and what it is built from: a seeded generator of random logs
// (Workload) and Compare, which asks two backends the same questions about
// a workload and fails on the first different answer.
//
// The reference is audit.History fed the same events in process: every
// question the suite asks of a backend it also asks of the reference, and
// the answers must be equal, besides the answers worked out by hand that
// the suite checks. Backends call Run from their own _test.go with a
// constructor; one that fails it cannot stand in for another.
package audittest
