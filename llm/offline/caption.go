package offline

import (
	"regexp"
	"strings"
)

// A chat turn that shares an image carries a description of it in
// brackets ("[shared a photo of a painting of a sunset with a palm
// tree]"). What was shown is often the only place a "what did she paint"
// or "what kind of sign" answer is said, and the answer is what the photo
// is of, not the words about sharing it.

// captionRE is a bracketed description of a shared image; its group is
// what the image shows.
var captionRE = regexp.MustCompile(`(?i)^\[\s*shared\s+(?:an?\s+)?(?:photo(?:graph)?y?|picture|image|pic)s?\s+of\s+(.+?)\s*\]?[.!]?$`)

// captionObject is what a caption sentence (without its speaker's label)
// shows: "a painting of a sunset" for "[shared a photo of a painting of
// a sunset]"; ok is false for any other sentence.
func captionObject(text string) (string, bool) {
	m := captionRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// captionAnswers reports whether a caption shows the kind of thing a what
// or which question asks for: one of the question's head words
// ("painting" in "What painting did …") is in what the image shows. A
// list question is not answered by a caption: its items are what was
// said, and an image's description beside each would crowd them out.
func captionAnswers(question, text string) bool {
	obj, ok := captionObject(text)
	if !ok || asksList(question) {
		return false
	}
	shown := map[string]bool{}
	for _, w := range contentWords(obj) {
		shown[stem(w)] = true
	}
	for _, h := range headWords(question) {
		if shown[stem(h)] {
			return true
		}
	}
	return false
}
