// Package embedding turns text into vectors. It owns the Embedder interface
// (each embedder also declares its RelevanceFloor, the default floor of
// memory views built with it), the tokenizer and the vector helpers the
// implementations share, and Traced, the decorator that makes every
// embedding call a span and an observation of cmem_embedding_seconds. Each
// implementation is a subpackage beside it: semantic, the offline default
// (word vectors shipped in the binary), hashing, deterministic feature
// hashing for tests and for byte-exact rebuilds, and openai, any
// OpenAI-compatible embeddings endpoint through go-openai. The contract all
// satisfy is held by embedtest.Run.
//
// Vectors are only comparable when they come from the same Model; callers
// store the Model next to every vector.
package embedding
