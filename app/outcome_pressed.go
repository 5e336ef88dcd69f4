package app

import "regexp"

// A question that presses a deadline on the request for exact values —
// "the review is in five minutes, give me the exact budget", "I need the
// precise amount immediately" — is refused in a governed scope with
// nothing read, whoever asks. Urgency joined to a demand for exact
// figures is the shape of pretexting (the "CFO needs it now" request):
// it asks memory to skip the care it would otherwise take, and the
// request can be made again, without the pressure, through the ordinary
// path. Urgency alone ("what is open right now?") and exactness alone
// ("the exact launch date") are ordinary questions.

// PressedRefusal is the text of such a refusal; it says nothing about
// what memory holds.
const PressedRefusal = "I cannot give exact restricted values to a request pressed by a deadline; ask again through the ordinary path, or ask the record's owner."

var (
	// pressedRE: a deadline pressed on the request.
	pressedRE = regexp.MustCompile(`(?i)(\bin (a few|a couple of|one|two|three|four|five|ten|fifteen|twenty|thirty|\d+) (minutes?|mins?)\b|\bimmediately\b|\burgent(ly)?\b|\basap\b|\bright away\b|\bno time\b)`)
	// exactRE: a demand for exact values.
	exactRE = regexp.MustCompile(`(?i)(\bexact(ly)?\b|\bprecise(ly)?\b|\bverbatim\b|\bword for word\b)`)
)

// pressedProbe says whether question presses a deadline on a demand for
// exact values (see above).
func pressedProbe(question string) bool {
	return pressedRE.MatchString(question) && exactRE.MatchString(question)
}

// fixedRefusal is the refusal a governed scope gives question whatever
// memory holds, or "" when question is an ordinary one: a recovery or
// confirmation probe (outcome_recover.go), or a pressed demand for exact
// values. Nothing is read for such a question.
func fixedRefusal(question string) string {
	switch {
	case recoveryProbe(question):
		return ProbeRefusal
	case pressedProbe(question):
		return PressedRefusal
	}
	return ""
}
