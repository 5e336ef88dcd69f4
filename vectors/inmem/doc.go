// Package inmem is the embedded default vectors.Store: an exact,
// brute-force cosine index held in process memory.
//
// Exact search is the right default for one process: it needs no server,
// its answers are the reference the Weaviate backend is measured against,
// and a scan of 100k 256-d fragments stays within a few milliseconds per
// tier partition (see the benchmarks).
//
// Layout, and why:
//
//   - Fragments are partitioned by tier, and the private tier by user, so a
//     search scans only the candidates it may return at all.
//   - Each partition keeps its vectors in one contiguous []float32 plus the
//     inverse norm of each vector. A score is then one dot product and one
//     multiply, while Get still returns the vector exactly as upserted (as
//     Weaviate does).
//   - Agent and resource ids are interned to small ints, and every fragment
//     carries its A(m) and R(m) as fixed-stride bitsets. A search turns the
//     filter's allowed sets into bitsets once; "A(m) ⊆ Allowed" is then a
//     few AND-NOT words per fragment, checked before any vector arithmetic.
//     The Allowed sets are authoritative here; Excluded* are not consulted.
//
// Search hits carry no Vector (callers rank and read, they do not need it);
// Get returns it.
package inmem
