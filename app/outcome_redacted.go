package app

import "strings"

// An answer is answer_redacted when it rests on a redacted summary: one of
// its sentences is supported by a summary the asker read and by no
// fragment they read in full. A summary reader who also reads other
// scopes in full (a department admin reading the public program in full
// and a case as a summary) gets a plain answer when what they were told
// came from what they read in full: the outcome says what the answer
// rests on, not which agents were consulted. Either way the text is the
// same — only what the asker may read was ever shown.

// summaryRead says whether a fragment's provenance (or a step's agent)
// is a scope's summary agent.
func summaryRead(agents []string) bool {
	for _, ag := range agents {
		if strings.HasPrefix(ag, scopePrefix) && strings.HasSuffix(ag, "-summary") {
			return true
		}
	}
	return false
}

// restsOnSummary says whether a sentence of answer rests on one of
// summaries and on none of the other fragments of read (ground's test).
func restsOnSummary(answer, question string, read, summaries []string) bool {
	if len(summaries) == 0 {
		return false
	}
	isSummary := map[string]bool{}
	for _, s := range summaries {
		isSummary[s] = true
	}
	var full []string
	for _, r := range read {
		if !isSummary[r] {
			full = append(full, r)
		}
	}
	for _, sent := range sentenceRE.FindAllString(answer, -1) {
		_, onSummary := ground(sent, question, summaries)
		_, onFull := ground(sent, question, full)
		if onSummary && !onFull {
			return true
		}
	}
	return false
}
