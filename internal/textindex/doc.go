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
// the best k of the rest are returned. The filter never changes the
// statistics (N, df, average length): a score is the same whoever asks,
// so a reader cannot learn about documents they may not see from a score.
//
// Results are best first; equal scores are ordered by ID (byte order), so
// results are deterministic and a reference model can reproduce them.
//
// An Index is safe for concurrent use: searches run in parallel with each
// other and are serialised with Add and Remove. The allow predicate is
// called with the index's read lock held, so it must not call Add or
// Remove on the same index.
package textindex
