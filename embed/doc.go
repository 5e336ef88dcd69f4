// Package embed turns text into vectors. It owns the Embedder interface
// and its two implementations: Hashing, the deterministic offline default
// (signed feature hashing, no model, no network), and OpenAI, any
// OpenAI-compatible embeddings endpoint through go-openai. The contract
// both satisfy is held by embedtest.Run.
//
// Vectors are only comparable when they come from the same Model; callers
// store the Model next to every vector.
package embed
