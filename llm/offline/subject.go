package offline

import (
	"regexp"
	"strings"
)

// An answer about someone the question names is said of them, not by
// them: "I'm volunteering at the food bank" answers "What is Ada doing on
// weekends?" as "volunteering at the food bank". The speaker's own
// subject ("I", "we") and its auxiliary open the quoted clause and say
// nothing the question does not know; so does the speaker's "my" or
// "our" before a noun ("my mom" is the mother of the one asked about).

// speakerSubjectRE is a first-person subject opening a clause, with its
// auxiliary and the adverbs that go with it.
var speakerSubjectRE = regexp.MustCompile(`(?i)^\s*(?:(?:i|we)(?:'m|'ve|'ll|'d|\s+am|\s+have|\s+had|\s+was|\s+were|\s+are)?|i'm|i've)\s+(?:(?:really|just|also|finally|been|so)\s+)*`)

// speakerPossessiveRE is the speaker's possessive before a noun, and
// the speaker as an object or second subject ("taught me", "mom and I").
var speakerPossessiveRE = regexp.MustCompile(`(?i)\b(?:my|our|me|i)(?:\s+|$)`)

// fillerRE is an intensifier or hedge that colours a clause and says
// nothing of what it answers ("really", "just", "super").
var fillerRE = regexp.MustCompile(`(?i)\b(?:really|so|just|definitely|totally|super|pretty|very|quite|truly|actually|always)\s+`)

// withoutSpeaker drops the first-person subject opening each
// comma-separated part of answer, the speaker's possessives and object
// pronouns in it, and its fillers, keeping a part whole when nothing
// would be left.
func withoutSpeaker(answer string) string {
	parts := strings.Split(answer, ",")
	for i, p := range parts {
		q := speakerSubjectRE.ReplaceAllString(p, "")
		q = speakerPossessiveRE.ReplaceAllString(q, "")
		q = strings.TrimRight(fillerRE.ReplaceAllString(q, ""), " ")
		if strings.TrimSpace(q) != "" {
			if i > 0 && strings.HasPrefix(p, " ") {
				q = " " + q
			}
			parts[i] = q
		}
	}
	return strings.Join(parts, ",")
}
