// Package weaviate is a vectors.Store on a Weaviate server (tested against
// v1.35.2) through weaviate-go-client/v4.
//
// One class (default "CmemFragment") holds every fragment, with vectorizer
// "none" and cosine distance; the object id is the fragment id, so
// replaying the log overwrites instead of duplicating. Provenance is
// stored as text[] properties with field tokenization (ids must match
// whole, never as words), and a search pushes the whole admissibility
// test down as a where filter:
//
//	tier = f.Tier
//	∧ user = f.User                                 (private tier only)
//	∧ ¬ContainsAny(agents, f.ExcludedAgents)         (A(m) ⊆ allowed)
//	∧ ¬ContainsAny(resources, f.ExcludedResources)   (R(m) ⊆ allowed)
//
// The two negations are the subset test because Excluded is the complement
// of Allowed in the universe of registered ids. The allowed sets stay the
// contract: every hit is checked against them again in Go, so a filter
// whose universe missed an id (registered after it was read) can shorten an
// answer but never leak a fragment.
//
// Why a filter and not Weaviate multi-tenancy for the private tier:
// tenancy would need a tenant per user, created on the fly, and a
// multi-tenant class cannot be searched across tenants, so the shared tier
// would need a second class with the same schema and two write paths. One
// class with a field-tokenized user filter keeps one write path, one
// replay and one schema; Weaviate resolves the equality filter from its
// inverted index into an allow-list before the vector search, and below
// the class's flatSearchCutoff (default 40000 candidates) it then searches
// the allow-list exactly. Tenancy would pay off only if a single user's
// private tier had to be offloaded or deleted as a unit.
//
// Scores: Weaviate reports cosine distance 1 - cos(q, m); Score is
// 1 - distance. Weaviate cuts its answer at the limit before our tie-break
// by ascending id, so Search asks for a few more than k and re-sorts.
//
// Long resource exclusion lists: the server's cost of Not(ContainsAny(...))
// grows with the list (≈9 ms for 400 ids at 10k fragments, against ≈6 ms
// for the whole unfiltered query). Above 32 excluded resources, Search asks
// without that clause for four times the candidates it needs and checks
// resources itself; candidates come best first, so the admissible ones are
// exactly the best admissible ones once there are enough of them, and when
// there are not (a very selective filter) it asks again, then falls back
// to the full filter.
//
// Reader labels (the default; Config.ExclusionFilter turns them off;
// labels.go): a search's reader class is its tier, user (private tier
// only) and allowed sets, and its label a hash of exactly these. Each
// object carries, in the readers property, the labels of the registered
// classes that admit it, so a search of a ready class filters on one
// ContainsAny of one value: no exclusion lists, no over-fetch. A grant or
// a revoke changes the allowed sets, hence the label: a label is never
// stale, only missing until materialised. A class is registered by its
// first search, which (like every search until the class is ready) takes
// the exclusion filter; upserts label under the registry's read lock with
// every registered class, and a background pass (materialise.go) PATCHes,
// page by page under the write lock, the readers property of every object
// whose labels differ from its provenance's; the classes pending when it
// started are ready when it ends. Search and HybridSearch both go through
// the label, and every hit is checked in Go against its class and the
// allowed sets, as on the other path; a hit that fails the check sends
// the search back to the exclusion filter. Classes unused for
// Config.ReaderClassIdle, or beyond Config.MaxReaderClasses, are evicted
// and their labels stripped by the next pass. The registry is persisted
// in the class <Class>Readers (registry.go), so a restarted Store
// searches through the labels that were ready from its first query. A
// class written under a lease by whichever process holds it
// (Config.Shared, Leased) shares the registry through it (shared.go): the
// holder labels, materialises and persists a class ready; every process
// reads the ready flags, trusts one only for a few seconds after reading
// it, and takes the exclusion filter for a class it has not seen ready.
// A Store without labels forgets the persisted registry before its first
// write.
//
// Batches and searches go over gRPC when Config.GRPCAddr is set (REST and
// GraphQL otherwise); a search then sends the exclusions as CONTAINS_NONE
// (grpcsearch.go). ACORN, Weaviate's default filter strategy since v1.34,
// serves the filtered HNSW search.
//
// Hybrid search (hybrid.go) is Weaviate's own: BM25F over the key and value
// properties fused with the vector search, the whole filter pushed down,
// over gRPC. Its BM25 statistics count every object of the class (a score,
// never membership, can depend on fragments a reader may not see), and a
// store sealed by package shred ranks by vector alone, since its text is
// ciphertext to Weaviate. A view built before values were embedded carries
// another model name in its checkpoint (vectors.ContentModel) and is
// rebuilt on start; the schema itself did not change.
//
// Ingest is bounded by Weaviate's HNSW indexing, a few hundred to a
// thousand objects/s on a small machine: feed it from the log
// asynchronously, never on the write path.
package weaviate
