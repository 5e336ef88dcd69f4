package app

// asksErasure says whether some sentence of text asks to erase something.
// Checked per sentence, not on the whole turn: eraseRE's imperative form
// ("Delete the old backup line…") anchors at a sentence's start, and a
// request that follows a first sentence ("My mobile is stable now. Delete
// the old backup line.") is as much a request as one that opens the turn.
func asksErasure(text string) bool {
	for _, s := range sentences(text) {
		if eraseRE.MatchString(s) {
			return true
		}
	}
	return false
}
