package offline

import "math"

// The weight of a word in a composed answer's choice: rare words say what
// a clause is about, the record's name (held by most items) says nothing.

// subjectWords are the words more than half of the items hold (the name
// of the record they are about), when there are enough items to tell.
func subjectWords(items []itemAt) map[string]bool {
	out := map[string]bool{}
	if len(items) < composeSubjectItems {
		return out
	}
	lists := make([][]string, len(items))
	for i, m := range items {
		lists[i] = composeWords(m.value)
	}
	for w, k := range docFreq(lists) {
		if 2*k > len(items) {
			out[w] = true
		}
	}
	return out
}

// clauseIDF weighs a word by how few clauses hold it: "budget" says more
// about what a clause is than the project's name every clause holds.
func clauseIDF(cls []clause) map[string]float64 {
	lists := make([][]string, len(cls))
	for i, c := range cls {
		lists[i] = c.words
	}
	df := docFreq(lists)
	idf := make(map[string]float64, len(df))
	for w, n := range df {
		idf[w] = math.Log(1 + float64(len(cls))/float64(n))
	}
	return idf
}

// docFreq counts, for each word, how many of the lists hold it.
func docFreq(lists [][]string) map[string]int {
	n := map[string]int{}
	for _, l := range lists {
		seen := map[string]bool{}
		for _, w := range l {
			if !seen[w] {
				seen[w] = true
				n[w]++
			}
		}
	}
	return n
}
