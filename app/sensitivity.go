package app

import (
	"regexp"
	"sort"
)

// The sensitivity lexicon of the write policy: which classes of restricted
// detail a text carries. Offline and rule-based on purpose — every
// decision is a note in the fragment's event, replayable and auditable.
var sensitivityLexicon = map[string]*regexp.Regexp{
	"credentials":  regexp.MustCompile(`(?i)\b(token|password|passphrase|passcode|pass code|api key|secret|credential|pin|wi-?fi|login)s?\b`),
	"door_codes":   regexp.MustCompile(`(?i)\b(door|gate|alarm|lockbox|keypad|garage|entry|access) codes?\b|\b(spare|hidden|backup|emergency) keys?\b|\bkeys? (?:(?:is|are) )?(?:kept |stays? |sits? |hangs? |hidden )?(under|inside|behind|beneath|above|on top of|in the)\b|\b(lock ?box|key ?safe|key ?box|safe combination|garage (door )?(opener|remote))\b`),
	"health":       regexp.MustCompile(`(?i)\b(diagnos\w*|medication\w*|prescri\w*|dose|dosing|lab\w*|results?|pregnan\w*|ultrasound|biopsy|therapy|psychiatr\w*|symptom\w*|hiv|hepatitis|syphilis|cancer|melanoma|treatment|allerg\w*|mental health)\b`),
	"compensation": regexp.MustCompile(`(?i)\b(salary|salaries|compensation|bonus|raise|pay band|equity|performance (review|plan|improvement)|disciplinary|termination|severance|complaint|leave of absence|medical leave)\b`),
	"legal":        regexp.MustCompile(`(?i)\b(lawsuit|litigation|settlement|subpoena|legal (strategy|hold|advice)|privileged)\b`),
	"grades":       regexp.MustCompile(`(?i)\b(grades?|gpa|transcript|academic probation|exam score|marks|conduct case|disciplinary hearing)\b`),
	"incident":     regexp.MustCompile(`(?i)\b(incidents?|root[- ]cause|breach\w*|compromised?|intrusions?|vulnerabilit(y|ies)|exploit\w*|forensics?|malware|phishing|post-?mortem)\b`),
	// When a home stands empty is what a burglar wants: a summary reader
	// (a guest, a cleaner, a contractor) needs the visit times, not this.
	"absence": regexp.MustCompile(`(?i)\baway from (the |our |my |their |his |her )?(home|house|flat|apartment|place)\b|\b(home|house|flat|apartment|place) (is|will be|stays|sits) (empty|unoccupied|vacant)\b|\b(no ?one|nobody)('s| is| will be) (at )?home\b`),
	"contact": regexp.MustCompile(`(?i)(\b\d{3}[-. ]\d{3}[-. ]\d{4}\b|\b(callback|phone|address|email) (number|line)?\b)`),
}

// Sensitivity returns the sensitivity classes text falls in, sorted.
func Sensitivity(text string) []string {
	var out []string
	for class, re := range sensitivityLexicon {
		if re.MatchString(text) {
			out = append(out, class)
		}
	}
	sort.Strings(out)
	return out
}
