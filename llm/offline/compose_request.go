package offline

import "regexp"

// A reader's bare command asks for the information it names: "Restate
// the medicine plan before the procedure", "Give me the current short lab
// summary", "Repeat the current schedule in the shortest form". Such a
// sentence holds the question's own words and no value; remembered, it
// must not answer the question it asks (requestRE covers the polite and
// question forms).

// commandRE matches a sentence that opens with a verb of telling or
// repeating followed by what is to be told.
var commandRE = regexp.MustCompile(`(?i)^\s*(?:restate|repeat|recap|summari[sz]e|list|confirm|tell me|give me|remind me|go over|share|send|provide|read back)\s+(?:the|my|your|our|his|her|their|all|both|each|what|which|when|where|how|me|us)\b`)

// asksFor says whether sentence s asks for information rather than
// stating it.
func asksFor(s string) bool {
	return requestRE.MatchString(s) || commandRE.MatchString(s)
}
