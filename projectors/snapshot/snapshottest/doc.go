// Package snapshottest holds the contract every snapshot.Store must pass
// (Run), and Mem, an in-memory Store that passes it, for the tests of what
// uses a Store (the writer, the restore) that need no NATS server.
//
// Stores call Run from their own _test.go with a constructor; one that
// fails it cannot stand in for another.
package snapshottest
