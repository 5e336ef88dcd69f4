package llm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Squash collapses every run of white space to one space and trims.
func Squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// TruncateWords cuts s to at most n runes, at a word boundary when there
// is one in the second half.
func TruncateWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, count := len(s), 0
	for i := range s {
		if count == n {
			cut = i
			break
		}
		count++
	}
	if sp := strings.LastIndexFunc(s[:cut], unicode.IsSpace); sp > cut/2 {
		cut = sp
	}
	return strings.TrimSpace(s[:cut])
}
