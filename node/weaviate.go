package node

import (
	"context"
	"errors"

	"github.com/cmem/cmem/vectors"
)

// openWeaviate opens the Weaviate vector view named by cfg.WeaviateURL.
func openWeaviate(ctx context.Context, cfg Config, dims int) (vectors.Store, error) {
	_, _, _ = ctx, cfg, dims
	return nil, errors.New("weaviate backend not wired yet")
}
