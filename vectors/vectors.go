// Package vectors owns the permission-filtered vector views of memory
// fragments: the Store interface that every backend implements, the filter
// that expresses M(u,a,t) for a search, and (in vectorstest) the one contract
// suite every backend must pass. Backends: inmem (the embedded default,
// exact cosine) and weaviate (a real Weaviate server).
package vectors

import (
	"context"
	"errors"
	"time"
)

// Fragment is what a view indexes: a fragment's content, provenance and the
// embedding of its text (EmbedText: key and value; fragments written before
// the value was embedded carry the embedding of their key).
type Fragment struct {
	ID        string // a UUID; backends may use it as their object id
	Key       string
	Value     string
	Tier      string // "private" or "shared"
	User      string
	Agents    []string // A(m), sorted, unique, non-empty
	Resources []string // R(m), sorted, unique
	CreatedAt time.Time
	Revision  uint64 // log revision of the FragmentWritten event
	Model     string // embedder that made Vector
	Vector    []float32
}

// Filter restricts a search to the fragments of one tier inside M(u,a,t).
// Build it with NewFilter so both forms of each set are consistent.
type Filter struct {
	Tier string
	// User restricts the private tier to that user's fragments; it is
	// ignored for the shared tier.
	User string
	// A fragment matches when Agents(m) ⊆ AllowedAgents and
	// Resources(m) ⊆ AllowedResources. Excluded* are the complements within
	// the universe of registered ids, for backends that can only express
	// "contains none of" (Weaviate: Not(ContainsAny(...))).
	AllowedAgents     []string
	AllowedResources  []string
	ExcludedAgents    []string
	ExcludedResources []string
}

// NewFilter builds a Filter from the allowed sets and the universes they
// are drawn from (every registered agent and resource id).
func NewFilter(tier, user string, allowedAgents, allAgents, allowedResources, allResources []string) Filter {
	return Filter{
		Tier: tier, User: user,
		AllowedAgents: allowedAgents, AllowedResources: allowedResources,
		ExcludedAgents: minus(allAgents, allowedAgents), ExcludedResources: minus(allResources, allowedResources),
	}
}

func minus(all, allowed []string) []string {
	keep := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		keep[a] = true
	}
	out := []string{}
	for _, a := range all {
		if !keep[a] {
			out = append(out, a)
		}
	}
	return out
}

// Hit is one search result. For Search, Score is the cosine similarity of
// the query vector to the fragment's vector, in [-1, 1]. For HybridSearch,
// Score is the fused score (HybridScore) and Cosine and Lexical are its
// two sides, so that a caller can hold each to a relevance floor.
type Hit struct {
	Fragment
	Score float32
	// Cosine is the cosine of the query to the fragment's vector (hybrid
	// search only).
	Cosine float32
	// Lexical is LexicalRelevance of the fragment's BM25 score, in [0, 1)
	// (hybrid search only; 0 when it was not among the lexical candidates).
	Lexical float32
}

// Store is a vector view. Implementations are safe for concurrent use.
type Store interface {
	// Upsert indexes fragments; upserting an id again replaces it, so a
	// replay of the log is idempotent.
	Upsert(ctx context.Context, fs []Fragment) error
	// Search returns up to k fragments matching f, best first (ties broken
	// by ascending ID). The vector has the store's dimension.
	Search(ctx context.Context, vector []float32, f Filter, k int) ([]Hit, error)
	// Get returns the fragments with these ids that exist, in no order.
	Get(ctx context.Context, ids []string) ([]Fragment, error)
	// Count returns the number of fragments indexed.
	Count(ctx context.Context) (int, error)
	// Delete removes the fragments with these ids (an erasure or a
	// fragment's deletion); ids not indexed are ignored.
	Delete(ctx context.Context, ids []string) error
	// Reset removes every fragment (a rebuild starts from it).
	Reset(ctx context.Context) error
	// Close releases resources.
	Close() error
}

// Checkpointer is a Store that outlives the process (Weaviate): it records
// how far the log has been applied to it, so that a restart resumes there
// instead of rewriting every fragment, and with which embedder, so that a
// changed embedder rebuilds it.
type Checkpointer interface {
	Checkpoint(ctx context.Context) (revision uint64, model string, err error)
	SetCheckpoint(ctx context.Context, revision uint64, model string) error
}

// ErrDimension is returned for a vector whose length is not the store's.
var ErrDimension = errors.New("vectors: vector dimension does not match the store")
