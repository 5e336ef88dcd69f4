// Package inmem is the embedded default vectors.Store: an exact,
// brute-force cosine index held in process memory.
//
// Exact search is the right default for one process: it needs no server,
// its answers are the reference the Weaviate backend is measured against,
// and a scan of 100k 256-d fragments takes about a millisecond (see the
// benchmarks).
//
// Layout, and why:
//
//   - Fragments are partitioned by tier, and the private tier by user, so a
//     search scans only the candidates it may return at all.
//
//   - Each partition keeps its vectors in one contiguous []float32 plus the
//     inverse norm of each vector, so Get returns a vector exactly as
//     upserted (as Weaviate does) and a rescored row is one dot product.
//
//   - Beside them, each row is quantised to int8 codes with its scale and
//     the norm of its quantisation residual (quant.go). The scan reads the
//     codes, a quarter of the bytes, and bounds each row's cosine by
//     Cauchy–Schwarz; only rows whose upper bound reaches the k-th best
//     lower bound are rescored on the float32 vectors. The answer is the
//     exact top k, ties by ID included; the codes only decide what need not
//     be looked at.
//
//   - Agent and resource ids are interned to small ints. Every row keeps
//     up to eight of them inline as bit positions in one allowed-set bitset
//     per search, and A(m) and R(m) as fixed-stride bitsets for rows with
//     more. A chunk of rows is filtered first (eight bits tested at once,
//     branch-free), then only its admissible rows are scored; a fragment
//     outside the filter's allowed sets is never scored, let alone
//     returned. The Allowed sets are authoritative here; Excluded* are not
//     consulted.
//
//   - The kernels (float32 dot, int8 dot over a list of rows with the next
//     rows prefetched, the slot-bit test) are AVX2 assembly on amd64 with
//     portable Go fallbacks elsewhere (dot_*.go); a large partition is
//     cut into blocks that one worker per CPU claims in turn, the caller
//     among them, so a worker the scheduler starts late does not hold up
//     the search.
//
//   - Hybrid search (hybrid.go) adds a lexical side: each partition has an
//     internal/textindex BM25 index over its fragments' key and value
//     chunks (vectors.Chunks); the partitions' indexes share one
//     vocabulary (textindex.Vocab), so a word held by many users' private
//     tiers is named once, and goes when its last fragment does. A search resolves the filter once, on
//     every CPU (admitted.go), to the admitted rows and their text
//     numbers (a bitset), asks the index with that set and BM25's
//     statistics taken over the admitted rows only (textindex.SearchDocs),
//     so no score depends on a fragment the reader may not see; the
//     vector side is Search's exact scan over the same admitted rows, run
//     alongside; the union of both sides' vectors.HybridDepth(k)
//     candidates is scored by vectors.HybridScore. A chunk is numbered in
//     its partition's index (chunks.go), not named: the number leads to
//     its fragment's row by two array reads, and ties go by fragment id
//     then chunk, as the Reference's do.
//
// Search hits carry no Vector (callers rank and read, they do not need it);
// Get returns it.
package inmem
