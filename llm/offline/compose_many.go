package offline

import (
	"regexp"
	"strings"
)

// Parts that ask for several things at once ("the three home items",
// "which blockers remain", "what red-flag symptoms"): memory states such a
// list in one sentence whose items the clause cutter separates ("Current
// visits: Friday 10:00 primary care; Friday 9:00 hematology"), so the part
// is answered by the whole sentence of its clause, not by its first item.

// countRE is a word that says how many things are asked: a count of two
// or more, "both", "all", "several".
var countRE = regexp.MustCompile(`(?i)\b(?:two|three|four|five|six|seven|eight|nine|ten|both|all|several)\b`)

// notPlural are words ending in s that name no plural thing.
var notPlural = map[string]bool{"does": true, "status": true, "diagnosis": true, "access": true, "address": true, "process": true, "plus": true, "bonus": true, "campus": true, "basis": true, "analysis": true, "always": true, "news": true, "whereas": true, "unless": true, "across": true, "perhaps": true}

// countWords say how many things are asked, not what they are: "the two
// visits" is about visits, and "Those two visits work for me" no more so
// than a sentence listing them.
var countWords = map[string]bool{"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "both": true, "all": true, "several": true}

// asksMany says whether a question segment asks for several things: it
// counts them, or one of its words is a plural noun.
func asksMany(segment string) bool {
	if countRE.MatchString(segment) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(segment), func(r rune) bool { return !('a' <= r && r <= 'z') && r != '-' }) {
		w = strings.Trim(w, "-")
		if len(w) >= 4 && strings.HasSuffix(w, "s") && !notPlural[w] &&
			!strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
			return true
		}
	}
	return false
}

// echoes says whether a clause only restates the question: it holds no
// value and no word beyond the question's and the record's name ("That is
// now the current target date"). It answers nothing, however well it
// matches.
func echoes(c clause, q, subject map[string]bool) bool {
	if c.value {
		return false
	}
	for _, w := range c.words {
		if !q[w] && !subject[w] {
			return false
		}
	}
	return true
}

// fitShares returns how many words each text may keep so that together
// they hold at most budget: every text keeps min(its length, cap) for the
// largest cap that fits (at least composeMinShare), so a short statement
// leaves its words to the long ones.
func fitShares(lengths []int, budget int) []int {
	total := func(limit int) int {
		n := 0
		for _, l := range lengths {
			n += min(l, limit)
		}
		return n
	}
	limit := composeMinShare
	for limit < budget && total(limit+1) <= budget {
		limit++
	}
	out := make([]int, len(lengths))
	for i, l := range lengths {
		out[i] = min(l, limit)
	}
	return out
}

// pointsBack makes echo clause i answer with what it points back to: the
// clause before it in the same item when that one states a value ("…
// pushes Harbor from July 23 to July 31. That is now the current target
// date."); otherwise the echo matches nothing.
func pointsBack(cls []clause, i int) {
	if i > 0 && cls[i-1].id == cls[i].id && cls[i-1].value && !cls[i-1].asks {
		cls[i].text, cls[i].sentence, cls[i].value = cls[i-1].text, cls[i-1].sentence, true
		cls[i].stale = cls[i].stale || cls[i-1].stale
		return
	}
	cls[i].words = nil
}

// restates says whether text states values and every one of them is in
// an earlier text: "Funding recap: 2,150 USD is the approved amount" after
// a recap that gave 2,150 USD repeats it and spends words the other parts
// need.
func restates(text string, earlier []string) bool {
	var values []string
	for _, f := range strings.Fields(text) {
		if f = strings.Trim(f, ".,;:()'\"“”"); distinctValue(f) {
			values = append(values, f)
		}
	}
	if len(values) == 0 {
		return false
	}
	for _, v := range values {
		found := false
		for _, e := range earlier {
			if strings.Contains(e, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
