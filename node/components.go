package node

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/cmem/cmem/embed"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/inmem"
)

// HashingDims is the dimension of the offline embedder's vectors.
const HashingDims = 256

// newEmbedder is the OpenAI-compatible embeddings endpoint when configured,
// else the deterministic feature-hashing embedder.
func newEmbedder(cfg Config) (embed.Embedder, error) {
	if cfg.OpenAIBaseURL == "" {
		return embed.NewHashing(HashingDims), nil
	}
	return embed.NewOpenAI(embed.OpenAIConfig{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.EmbeddingModel, Dims: cfg.EmbeddingDims})
}

// newProvider is the OpenAI-compatible chat endpoint when configured, else
// the offline provider. names lists the registered users, whom
// anonymisation replaces.
func newProvider(cfg Config, names func() []string, logger *slog.Logger) (llm.Provider, error) {
	if cfg.OpenAIBaseURL == "" {
		return llm.NewOffline(llm.OfflineConfig{Names: names})
	}
	return llm.NewOpenAI(llm.OpenAIConfig{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.ChatModel,
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
