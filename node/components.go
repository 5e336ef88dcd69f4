package node

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/embedding/openai"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/llm/offline"
	llmopenai "github.com/cmem/cmem/llm/openai"
	"github.com/cmem/cmem/projectors/graphmem"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
)

// HashingDims is the dimension of the hashing embedder's vectors (views
// built with CMEM_EMBEDDER=hashing).
const HashingDims = 256

// offlineHashingDims is the hashing embedder's dimension inside the offline
// provider, which embeds only short texts in process and so affords more
// dimensions (fewer collisions) than stored vectors.
const offlineHashingDims = 1024

// Offline embedders (Config.Embedder).
const (
	EmbedderSemantic = "semantic"
	EmbedderHashing  = "hashing"
)

// newEmbedder is the OpenAI-compatible embeddings endpoint when configured,
// else the offline embedder Config.Embedder names: the semantic word-vector
// embedder by default, feature hashing on request.
func newEmbedder(cfg Config) (embedding.Embedder, error) {
	switch {
	case cfg.OpenAIBaseURL != "":
		return openai.New(openai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.EmbeddingModel, Dims: cfg.EmbeddingDims})
	case cfg.Embedder == EmbedderHashing:
		return hashing.New(HashingDims), nil
	default:
		return semantic.New()
	}
}

// newProvider is the OpenAI-compatible chat endpoint when configured, else
// the offline provider, which measures similarity with the view's embedder
// (semantic) or, when the view hashes, with a wider hashing embedder.
// names lists the registered users, whom anonymisation replaces.
func newProvider(cfg Config, e embedding.Embedder, names func() []string, logger *slog.Logger) (llm.Provider, error) {
	if cfg.OpenAIBaseURL == "" {
		if cfg.Embedder == EmbedderHashing {
			e = hashing.New(offlineHashingDims)
		}
		return offline.New(offline.Config{Embedder: e, Names: names})
	}
	return llmopenai.New(llmopenai.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.ChatModel,
		Names: names, Logger: logger})
}

// newStore is Weaviate when configured, else the in-process view.
func newStore(ctx context.Context, cfg Config, dims int) (vectors.Store, bool, error) {
	if cfg.WeaviateURL == "" {
		s, err := inmem.New(dims)
		return s, false, err
	}
	s, err := openWeaviate(ctx, cfg, dims)
	if err != nil {
		return nil, true, fmt.Errorf("node: weaviate: %w", err)
	}
	return s, true, nil
}

// reranker is the learned retriever the memory view uses, or nil (a nil
// *rerank.Model in the interface would not read as "none").
func (n *Node) reranker() app.Reranker {
	if n.Rerank == nil {
		return nil
	}
	return n.Rerank
}

// newGraphMemory is graph memory over the configured embedder: its query
// graph's edges are drawn by the same similarity the memory view ranks by.
func newGraphMemory(cfg Config, e embedding.Embedder) (*graphmem.Projection, error) {
	g, err := graphmem.New(cfg.GraphMemory, e)
	if err != nil {
		return nil, fmt.Errorf("node: %w", err)
	}
	return g, nil
}
