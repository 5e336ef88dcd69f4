package app

import "regexp"

// Terms a class read takes as its own although the lexicon files them
// under another class. An "access code" opens a portal as often as a
// door: the lexicon files it as a door code (summaries drop it either
// way), and a reader of credentials alone reads a sentence whose other
// class comes only from it — "the new case access code is lum_…" is
// campus IT's business. A "front door access code" is a door code only,
// and a sentence holding a term of a third class is still not theirs.

// sharedTerms maps a term to the classes it belongs to at once. A term
// whose first group matched is not shared: a "door access code" is a door
// code only.
var sharedTerms = []struct {
	re      *regexp.Regexp
	classes []string
}{
	{regexp.MustCompile(`(?i)\b((?:door|gate|garage|front|back|side|building|keypad|alarm|entry|house|home|lockbox|apartment|suite|room)\s+)?access codes?\b`), []string{"credentials", "door_codes"}},
}

// onlyClass says whether sentence s, of classes cls, is of class alone,
// a shared term counting as class.
func onlyClass(s string, cls []string, class string) bool {
	if len(cls) == 1 && cls[0] == class {
		return true
	}
	shared := false
	for _, t := range sharedTerms {
		if !contains(t.classes, class) {
			continue
		}
		s = t.re.ReplaceAllStringFunc(s, func(m string) string {
			if g := t.re.FindStringSubmatch(m); g[1] != "" {
				return m
			}
			shared = true
			return " "
		})
	}
	if !shared {
		return false
	}
	rest := Sensitivity(s)
	return len(rest) == 0 || len(rest) == 1 && rest[0] == class
}

// validityRE says how long a credential or code holds ("The new code
// expires May 24 at 20:00", "valid through Friday").
var validityRE = regexp.MustCompile(`(?i)\b(expir\w*|(valid|active|good) (until|through|till)|rotat\w*)\b`)

// termOfValidity says whether s, a sentence of no class following one of
// class, says how long that credential or code holds: it belongs to the
// value before it, which a class reader reads, and carries no other class.
func termOfValidity(s, class string) bool {
	return (class == "credentials" || class == "door_codes") && validityRE.MatchString(s)
}
