package locomo

import "github.com/cmem/cmem/internal/textindex"

// lexical is the plain BM25 baseline the harness ranks the same turns
// with: the project's one inverted index, without stemming (BM25's usual
// k1 = 1.2, b = 0.75), one index per conversation.
type lexical struct{ ix *textindex.Index }

func newLexical() lexical { return lexical{textindex.New(textindex.Config{})} }

// Add indexes text under id.
func (l lexical) Add(id, text string) { l.ix.Add(id, text) }

// Search returns the ids of the k best documents, best first.
func (l lexical) Search(query string, k int) []string {
	hits := l.ix.Search(query, k, nil)
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
