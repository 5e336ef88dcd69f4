package offline

import (
	"strings"
	"unicode"
)

// A recap lists its values one after another, comma-separated: "no major
// blockers remain, approved budget is 214,000 USD, …". A cut window that
// starts inside one of them keeps its tail and loses its head — "blockers
// remain" from "no major blockers remain", "3, 2026" from "launch November
// 3, 2026" — and the head is often what the value means (a negation, a
// month). So a window starts where a listed item starts.

// itemStarts returns, for each field, whether a listed item starts there:
// the first field, or one after a field ending in a comma that does not
// itself begin with a digit (a date's year after "3," continues the date).
func itemStarts(fields []string) []bool {
	out := make([]bool, len(fields))
	for i, f := range fields {
		if i == 0 {
			out[i] = true
			continue
		}
		r := []rune(f)
		out[i] = strings.HasSuffix(fields[i-1], ",") && len(r) > 0 && !unicode.IsDigit(r[0])
	}
	return out
}

// nextItemStart returns the first item start at or after i and at or
// before limit, -1 when there is none.
func nextItemStart(starts []bool, i, limit int) int {
	for j := max(i, 0); j <= limit && j < len(starts); j++ {
		if starts[j] {
			return j
		}
	}
	return -1
}
