package offline

import "strings"

// A quoted phrase is one value: the wording a team agreed to use outside
// ("the logistics pilot"), a label, a name. A cut that ends inside it
// gives `wording "the` — the value lost and its first word kept — so a
// cut window is moved to hold the whole phrase, or ends before it when
// the phrase does not fit.

// openQuoteAt returns the index of the field that opens a quotation the
// fields do not close, -1 when every quotation they open is closed. A
// straight double quote opens or closes by its place (before or after
// the word); a single quote opens only at a word's start, as an
// apostrophe never does.
func openQuoteAt(fields []string) int {
	open := -1
	for i, f := range fields {
		starts := strings.HasPrefix(f, "\"") || strings.HasPrefix(f, "“") ||
			strings.HasPrefix(f, "'") || strings.HasPrefix(f, "‘")
		core := strings.TrimRight(f, ".,;:!?)")
		ends := len(core) > 1 && (strings.HasSuffix(core, "\"") || strings.HasSuffix(core, "”") ||
			strings.HasSuffix(core, "'") || strings.HasSuffix(core, "’"))
		if open < 0 && starts {
			open = i
		}
		if open >= 0 && ends && (i > open || len(core) > 2) {
			open = -1
		}
	}
	return open
}

// keepQuoteWhole returns the window [at, at+budget) of fields moved so
// that it does not end inside a quotation: shifted right to the
// quotation's end when the whole quotation then still fits, otherwise
// ended before the quotation opens.
func keepQuoteWhole(fields []string, at, budget int) (int, int) {
	end := at + budget
	open := openQuoteAt(fields[at:end])
	if open < 0 {
		return at, end
	}
	open += at
	for e := end; e < len(fields); e++ {
		if openQuoteAt(fields[open:e+1]) < 0 { // the quotation closes at field e
			if e+1-budget <= open {
				// the shifted window starts where a listed item does
				// ("no major blockers remain", not "blockers remain"),
				// if one starts before the quotation
				start := max(at, e+1-budget)
				if item := nextItemStart(itemStarts(fields), start, open); item >= 0 {
					start = item
				}
				return start, min(start+budget, len(fields))
			}
			break
		}
	}
	if open > at {
		return at, open
	}
	return at, end
}
