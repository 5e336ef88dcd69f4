package offline

import "strings"

// When no clause of a record holds a word of the question ("the two
// active appointments" against "The two current visits are …"), the
// sentence answerer still finds the sentence by meaning, but its span cuts
// a list of facts short ("current visits are Wednesday March 19 at 1:30 PM
// biopsy and Monday"). A reader of a record's facts is given the
// supporting sentences themselves, within the composer's 40 words.

// factsFromSupport returns the supporting sentences cut to
// composeMaxWords, the question's words kept first; ok is false when there
// are none.
func factsFromSupport(question string, support []string) (string, bool) {
	text := strings.TrimSpace(strings.Join(support, " "))
	if text == "" {
		return "", false
	}
	q := map[string]bool{}
	for _, w := range composeWords(question) {
		q[w] = true
	}
	return cutTo(text, composeMaxWords, q, q), true
}
