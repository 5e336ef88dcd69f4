// Package weaviatetest starts a real weaviate-server for tests: one per
// test binary (Shared, stopped by StopShared from TestMain), because a
// start costs about ten seconds, and a unique class name per test (Class)
// so tests sharing it stay isolated.
//
// The binary is looked up on PATH and in $(go env GOPATH)/bin; `make
// test-deps` builds it there. A missing binary fails the test: a test that
// needs Weaviate never passes without it. CMEM_TEST_WEAVIATE_URL (and
// optionally CMEM_TEST_WEAVIATE_GRPC, host:port) points the tests at a
// server that is already running instead.
package weaviatetest
