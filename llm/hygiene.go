package llm

import (
	"regexp"
	"strings"
)

// nothingRE matches replies that say nothing: no information found,
// errors, refusals and provider failures.
var nothingRE = regexp.MustCompile(`(?i)^\s*(no information\b|no relevant information\b|nothing relevant\b|none of (the available|your) agents\b|no agent\b|no agents? (was|were) able\b|` +
	`i (do not|don't|cannot|can't) (know|answer|help|find|provide)\b|i'?m (sorry|unable|not able)\b|sorry\b|unable to\b|cannot answer\b|` +
	`(an )?error\b|failed\b|request failed\b|tool (call )?failed\b|the (tool|resource|provider|model) (failed|is unavailable|returned an error)\b|` +
	`(service|provider) unavailable\b|not found\b|unknown\.?\s*$|n/?a\s*$)`)

// SaysNothing reports whether a reply carries no fact: empty, or a
// no-information reply, an error, a refusal or a provider failure. Such a
// reply never covers a question and is not worth remembering.
func SaysNothing(reply string) bool {
	r := strings.TrimSpace(reply)
	return r == "" || nothingRE.MatchString(r)
}
