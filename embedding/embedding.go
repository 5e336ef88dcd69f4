package embedding

import "context"

// Embedder embeds texts. Model names the embedder and its parameters
// exactly (e.g. "hash-v1-256"), so that a vector is only ever compared with
// vectors of the same Model; Dims is the vector length.
type Embedder interface {
	Model() string
	Dims() int
	// Embed returns one L2-normalised vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// RelevanceFloor is the similarity below which this embedder's hits are
	// noise: the default relevance floor of memory views built with it,
	// within -1..1, or NoRelevanceFloor.
	RelevanceFloor() float32
}

// NoRelevanceFloor is the RelevanceFloor of an embedder that knows no
// floor: every cosine similarity is at least -1, so no hit is dropped.
const NoRelevanceFloor float32 = -1
