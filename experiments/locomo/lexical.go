package locomo

// lexical is the plain BM25 baseline the harness ranks the same turns
// with. It has the shape of the project's inverted index (Add, Search
// over ids); newLexical is the one place that picks the implementation.
type lexical interface {
	Add(id, text string)
	Search(query string, k int) []string
}

// newLexical returns an empty BM25 index. Until the project's shared
// index lands this is bm25, a minimal stand-in of the same shape.
func newLexical() lexical { return newBM25() }
