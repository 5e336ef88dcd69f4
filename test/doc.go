// Package test holds no code: its folders are the tests that stand apart
// from the production tree — e2e (end-to-end features), cluster (the fault
// rig on a three-node NATS cluster), console (headless Chromium), layout
// (the repository's shape) — and install-deps.sh, what `make test`
// installs before it runs them.
package test
