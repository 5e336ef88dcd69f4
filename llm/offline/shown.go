package offline

import (
	"regexp"
	"strings"
)

// Asked what someone shared or took a photo of, the answer is what the
// photo shows: the description of the image shared in the turn that
// talks about it ("Took this on my hike last fall! [shared a photo of a
// foggy lake at dawn]"), not the words said beside it.

// photoOfRE is a question asking what an image shows: "What did Lena
// share a photo of …", "What did Omar take a picture of …".
var photoOfRE = regexp.MustCompile(`(?i)^(?:\w+:\s+)?what\s+(?:\w+\s+)?(?:did|does|do|has|have)\s+.{1,60}?\b(?:share|shared|take|took|send|sent|post|posted|show|showed)\s+(?:a\s+|an\s+|the\s+)?(?:photo(?:graph)?|picture|pic|image|snapshot)s?\s+of\b`)

// asksWhatShown reports whether question asks what a shared image shows.
func asksWhatShown(question string) bool {
	return photoOfRE.MatchString(strings.TrimSpace(question))
}

// shownInTurn returns, for a question asking what an image shows, the
// caption sentence of c's turn (the memory item c is from), c itself when
// it is one; else c.
func shownInTurn(question string, c rankedSentence, cands []rankedSentence) rankedSentence {
	if !asksWhatShown(question) {
		return c
	}
	if _, text := speakerLabel(c.text); isCaption(text) || c.id == "" {
		return c
	}
	for _, x := range cands {
		if _, text := speakerLabel(x.text); x.id == c.id && isCaption(text) {
			return x
		}
	}
	return c
}

// isCaption reports whether text is a shared image's description.
func isCaption(text string) bool {
	_, ok := captionObject(text)
	return ok
}
