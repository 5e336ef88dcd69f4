package offline

// "How often does Audrey walk her dogs?" is answered by a frequency as
// said ("multiple times a day", "every weekend"). Among sentences about
// the subject, one that says how often beats a better aligned one that
// only holds a number, as a sentence that says when beats one only said
// on a day.

// saysHowOften is, for a how-often question, the best of ranked (best
// first) scoring at least floor that holds a frequency (frequencyRE); ok
// is false for another question or when none does.
func saysHowOften(question string, ranked []rankedSentence, floor float32) (rankedSentence, bool) {
	if !howOftenRE.MatchString(question) {
		return rankedSentence{}, false
	}
	for _, c := range ranked {
		if c.score < floor {
			continue // ranked by prior too: a later one may reach it
		}
		if _, text := speakerLabel(c.text); frequencyRE.MatchString(text) {
			return c, true
		}
	}
	return rankedSentence{}, false
}
