package node

import (
	"context"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/weaviate"
)

// openWeaviate opens the Weaviate vector view named by cfg.WeaviateURL.
// The view's runner replays the log from the start at every boot and
// upserts are idempotent by fragment id, so the class converges to the log
// whatever it held before. Its reader labels are shared through the
// class: the class is written under a lease by whichever process holds it
// (leaseStores), which labels; every process searches through the labels
// the persisted registry calls ready. Shared from the start, because
// Leased comes after the seal (it finds the Store through Unwrap) and no
// pass may run before it.
func openWeaviate(ctx context.Context, cfg Config, dims int) (vectors.Store, error) {
	return weaviate.Open(ctx, weaviate.Config{URL: cfg.WeaviateURL, GRPCAddr: cfg.WeaviateGRPC, Class: cfg.WeaviateClass, Dims: dims,
		Shared: true})
}
