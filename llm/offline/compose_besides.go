package offline

import "regexp"

// "What is the home recovery list besides the blood pressure medicine?":
// the words after "besides" name what the asker does not want; a clause
// holding them states the thing set aside, so they are no part of what is
// asked.

// besidesRE finds where a segment starts naming what it sets aside.
var besidesRE = regexp.MustCompile(`(?i)\s(?:besides|other than|apart from|aside from|except(?:\s+for)?|excluding|not counting|leaving out)\s`)

// withoutSetAside returns segment up to what it sets aside.
func withoutSetAside(segment string) string {
	if loc := besidesRE.FindStringIndex(segment); loc != nil {
		return segment[:loc[0]]
	}
	return segment
}
