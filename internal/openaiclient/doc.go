// Package openaiclient holds what the two OpenAI-compatible adapters,
// embedding/openai (the /embeddings endpoint) and llm/openai (chat
// completions), share: the checks of the endpoint's BaseURL and Model and
// the construction of the go-openai client. It lives under internal/
// because neither adapter may import the other.
//
// The errors it returns wrap the sentinel the caller passes, so each
// adapter keeps its own (embedding.ErrConfig, llm.ErrConfig).
package openaiclient
