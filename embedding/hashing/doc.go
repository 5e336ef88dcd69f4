// Package hashing is the deterministic feature-hashing embed.Embedder: no
// model, no network, the same vector for the same text on every machine.
// It understands no wording (synonyms share nothing), so it serves tests
// that need exact, explainable scores, and deployments that ask for it
// (CMEM_EMBEDDER=hashing); the offline default is package semantic.
package hashing
