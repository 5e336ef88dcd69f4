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
	for _, w := range strings.FieldsFunc(strings.ToLower(segment), func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' }) {
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
	if c.value || denialRE.MatchString(c.text) { // "there are no major blockers open" answers "are any open?"
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

// restates says whether text states values, every one of them is in an
// earlier text and an earlier text already names the part (half its
// own words or more): "Funding recap: 2,150 USD is the approved bridge-support amount"
// after a recap that gave "2,150 USD current bridge support" repeats it
// and spends words the other parts need. A clause that repeats an amount
// beside the safe label it was picked for still answers the label.
func restates(text string, earlier []string, part map[string]bool) bool {
	named := false
	for _, e := range earlier {
		has := map[string]bool{}
		for _, w := range composeWords(e) {
			has[w] = true
		}
		hit := 0
		for w := range part {
			if has[w] {
				hit++
			}
		}
		named = named || (len(part) > 0 && 2*hit >= len(part))
	}
	if !named {
		return false
	}
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

// listRE is a sentence that lists after a lead-in: "Medication card
// recap: sertraline 50 mg daily; hydroxyzine 25 mg as needed; stop
// alprazolam". Its items are one statement, the lead-in says what they
// are, so it is not cut at its semicolons.
var listRE = regexp.MustCompile(`^[^;:]{1,80}:\s+[^;]+;`)

// clausesOfSentence cuts a sentence into clauses, a list after a lead-in
// whole unless it names a value as past: "remove the earlier suite 730;
// the current suite remains 731" must stay two statements, one stale.
func clausesOfSentence(s string) []string {
	if listRE.MatchString(s) && pastAt(s) < 0 {
		return []string{s}
	}
	return clauseSplitRE.Split(s, -1)
}

// numbers are the counts a question names.
var numbers = map[string]int{"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// countOf returns how many things segment counts, 0 when it names no
// number.
func countOf(segment string) int {
	for _, w := range strings.Fields(strings.ToLower(segment)) {
		if n, ok := numbers[strings.Trim(w, ".,;:?!")]; ok {
			return n
		}
	}
	return 0
}

// listMarkRE is a sentence that lists: a comma, a semicolon or "and".
var listMarkRE = regexp.MustCompile(`[,;]|\band\b`)

// moreItems returns, for a part that counts n things whose chosen clause
// i states one ("Prep reminder two: arrive at 10:40 AM"), the other
// clauses that hold about as much of the part and state the rest, newest first, each from its
// own sentence: up to n in all.
func moreItems(ps partScores, cls []clause, i, n int) []int {
	if n < 2 || listMarkRE.MatchString(cls[i].sentence) {
		return nil
	}
	var out []int
	seen := map[string]bool{cls[i].sentence: true}
	for j := range cls {
		if len(out)+1 >= n {
			break
		}
		if j != i && ps.scores[j] > 0 && !cls[j].stale && ps.own[j] >= composeNear*ps.own[i] && !seen[cls[j].sentence] { // as much of the part, value or not
			seen[cls[j].sentence] = true
			out = append(out, j)
		}
	}
	return out
}

// denialRE is a clause that denies: its polarity is its content.
var denialRE = regexp.MustCompile(`(?i)\b(?:no|not|none|nothing|never|without|cleared|closed)\b|n't\b`)

// fromClause returns sentence from where clause c starts (the whole
// sentence when c is not found in it): "approved budget is 216,000 USD;
// and there are no major blockers open" from the clause on, not the
// recap's start, which a part's share would keep instead.
func fromClause(sentence, c string) string {
	if i := strings.Index(sentence, c); i > 0 {
		return sentence[i:]
	}
	return sentence
}
