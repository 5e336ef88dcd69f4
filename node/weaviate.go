package node

import (
	"context"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/weaviate"
)

// openWeaviate opens the Weaviate vector view named by cfg.WeaviateURL.
// The view's runner replays the log from the start at every boot and
// upserts are idempotent by fragment id, so the class converges to the log
// whatever it held before.
func openWeaviate(ctx context.Context, cfg Config, dims int) (vectors.Store, error) {
	return weaviate.Open(ctx, weaviate.Config{URL: cfg.WeaviateURL, GRPCAddr: cfg.WeaviateGRPC, Class: cfg.WeaviateClass, Dims: dims})
}
