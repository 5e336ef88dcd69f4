// Package textindex is cmem's one in-process inverted index: a tokeniser,
// an optional light English stemmer and Okapi BM25 scoring over a set of
// documents that can change (Add, Remove) while it is searched.
//
// Use:
//
//	ix := textindex.New(textindex.Config{})      // BM25 k1 = 1.2, b = 0.75, no stemming
//	ix.Add("d1", "Lyon is known for its bouchons.")
//	ix.Add("d2", "Paris has the Louvre.")
//	hits := ix.Search("bouchons in Lyon", 10, nil) // []Hit{{ID: "d1", Score: …}}
//
// Scores are BM25 over the documents in the index at the time of the
// search: idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) (the "+1" form, never
// negative), and each document's length normalised against the average
// length of the documents in the index. A query term repeated counts once.
// A very frequent token (a speaker's name in every turn of a conversation)
// gets an idf near zero, so it cannot outweigh a rarer content word.
//
// Search's allow predicate makes a filtered search exact: every document
// that matches a query term is scored, those allow rejects are dropped, and
// the best k of the rest are returned. Search's filter does not change the
// statistics (N, df, average length): they count every document, so a
// score can depend on documents the caller may not see. SearchIn takes
// them over the allowed documents only, so that nothing a caller may not
// see changes what it is shown.
//
// A caller that keeps its documents in arrays numbers them instead of
// naming them: AddDoc, RemoveDoc and SearchDocs take and return those
// numbers, so adding a document hashes no id and builds no string.
//
// Adding a document looks its terms up and notes them; their postings
// are built later, a batch of documents at a time grouped by term (by
// the next search at the latest), which reaches each term's postings
// once per batch rather than once per document. Removing the last
// document holding a term drops the term, name and all, at once, so no
// word of an erased text stays in the index (HasTerm).
//
// Terms are named and numbered by a Vocab, which indexes may share
// (NewShared): a store with one index per partition then tables a common
// word once. The Vocab counts the documents of all its indexes holding a
// term and drops the name when the last of them goes (Vocab.Has).
//
// Results are best first; equal scores are ordered by ID (byte order), so
// results are deterministic and a reference model can reproduce them.
//
// An Index is safe for concurrent use: searches run in parallel with each
// other and are serialised with Add and Remove (a search that finds
// postings pending builds them first, under the write lock). The allow
// predicate and SearchDocs' tie are called with the index's lock held, so
// they must not call Add or Remove on the same index.
package textindex
