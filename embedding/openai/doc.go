// Package openai is the embed.Embedder of any OpenAI-compatible
// /embeddings endpoint, through go-openai.
package openai
