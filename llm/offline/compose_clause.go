package offline

import (
	"regexp"
	"strings"
	"unicode"
)

// The clauses a composed answer is made of: memory's sentences cut where
// one statement ends and the next begins, each marked for whether it
// speaks of a value as past ("replaces the earlier 236,000 USD") or only
// about how to treat notes ("unless a later note says so").

// clauseSplitRE cuts a sentence into clauses: at a semicolon, a dash, or a
// comma followed by a word that starts a new statement.
var clauseSplitRE = regexp.MustCompile(`(?i)\s*;\s*|\s+[—–]\s+|\s+-\s+|,\s+(?:but|while|whereas|although|though|so|yet)\s+`)

// staleRE marks a clause that gives a value as no longer current;
// changeRE one that does so only when a value follows ("that replaces
// 231,000 USD", not "Harbor no longer has blockers open").
var (
	staleRE  = regexp.MustCompile(`(?i)\b(?:earlier|previous|previously|old|older|original|originally|outdated|obsolete|superseded|formerly|former|placeholder|provisional|exploratory|prior)\b`)
	changeRE = regexp.MustCompile(`(?i)\b(?:supersedes|supersede|replaces|replaced|no longer)\b`)
)

// hedgeRE marks a clause about how to read notes rather than a fact
// ("none of those edits should be treated as changing …", "nothing in
// this message changes …", "unless …"), a
// condition ("if that closes, …"), a request ("I only need …") or a
// rule of where a value may go ("the exact wording does not belong in
// the title field"). "Background" hedges as a noun ("treat them as
// background"), not as the first half of a name ("the background-form
// receipt" is a value).
var hedgeRE = regexp.MustCompile(`(?i)\b(?:unless|if|none of|should not|must not|do not|don't|never|not be treated|noise|chatter|reminders?|please|(?:i|we) (?:only |just )?need|can you|could you|nothing in (?:this|that|the|these|those)|does not change|doesn't change|(?:does|do) not belong|(?:doesn't|don't) belong)\b|\bbackground(?:[^-\w]|$)`)

// requestRE marks a sentence that asks for information rather than
// stating it: a question, or a request to give, summarise or share.
var requestRE = regexp.MustCompile(`(?i)\?\s*["'”’]?\s*$|^\s*(?:(?:please|let's|let us)\s+(?:summari[sz]e|give|tell|list|confirm|share|send|provide|recap|say|repeat|remind|review|go over)\b|(?:what|which|who|when|where|how|can you|could you|would you)\b)|\b(?:i|we) (?:only |just )?(?:need|want) (?:the|a|an|to know)\b`)

// digitRE marks a token that states a value: a number, or a word holding
// a digit ("18:00", "v2").
var digitRE = regexp.MustCompile(`\d`)

// clause is one statement of a memory item.
type clause struct {
	text  string
	words []string // factWords of text
	// around are the factWords of the whole sentence: a listed item
	// ("blocker final sign-off") is matched to the question in the
	// sentence that says what it lists.
	around []string
	// sentence is the sentence the clause was cut from, from the clause
	// on: the list a part asking for several things is answered with.
	sentence string
	id       string
	order    int  // the item's rank in memory, newest first
	stale    bool // speaks of a value as past
	hedge    bool
	value    bool // holds a digit
	// asks: the clause is a question or a request for the information
	// ("Please summarize the three plan items", "I only need the safe
	// line"), a reader's words remembered, not a statement of it.
	asks bool
}

// clausesOf returns the distinct clauses of the items, in item order.
func clausesOf(items []itemAt) []clause {
	return clausesIn(items, false)
}

// clausesIn returns the distinct clauses of the items, in item order,
// each cut into its listed items when byItem (compose_items.go).
func clausesIn(items []itemAt, byItem bool) []clause {
	var out []clause
	seen := map[string]bool{}
	for i, m := range items {
		for _, s := range factSentences(m.value) {
			asks := asksFor(s)
			whole := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ".!?"))
			around := clauseWords(whole)
			for _, piece := range clausesOfSentence(s) {
				// a hedge or a request covers every item of its clause:
				// "none of that changes … date, site, amount, or blocker state"
				hedge := hedges(piece)
				asks := asks || requestRE.MatchString(piece) || declines(piece)
				for _, c := range itemsOf(s, piece, byItem) {
					c = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(c), ".!?,:;"))
					norm := strings.ToLower(strings.Join(strings.Fields(c), " "))
					if norm == "" || seen[norm] {
						continue
					}
					seen[norm] = true
					out = append(out, clause{text: c, sentence: fromClause(whole, c), words: clauseWords(c), around: around, id: m.id, order: i,
						stale: pastAt(c) >= 0, hedge: hedge || hedges(c), value: digitRE.MatchString(c), asks: asks || requestRE.MatchString(c) || declines(c)})
				}
			}
		}
	}
	return out
}

// staleValues returns the values the clauses name as past: the tokens
// holding a digit after a clause's stale marker ("supersedes the earlier
// 236,000 USD figure" names 236,000). A clause stating one is no current
// statement of it, however new.
func staleValues(cls []clause) map[string]bool {
	out := map[string]bool{}
	for _, c := range cls {
		if at, end := pastSpan(c.text); at >= 0 {
			for _, f := range strings.Fields(c.text[at:end]) {
				if f = strings.Trim(f, ".,;:()'\"“”"); distinctValue(f) {
					out[f] = true
				}
			}
		}
	}
	return out
}

// pastAt returns where text starts naming a value as past, -1 when it
// does not, or when what it names as past gives way to a current value
// ("replaces 231,000 USD with 236,000 USD" states the new figure).
func pastAt(text string) int {
	at, end := pastSpan(text)
	if end < len(text) {
		return -1
	}
	return at
}

// newValueRE is where a change names what comes instead: "replaces X
// with Y", "X is superseded by Y".
var newValueRE = regexp.MustCompile(`(?i)\s(?:with|by)\s`)

// pastSpan returns the part of text that names a value as past, [at, end)
// (at -1: none). After a change word it ends where the new value is
// named: in "replaces auto-renewal with a fixed 12-month term" the term is
// the current one.
func pastSpan(text string) (at, end int) {
	if loc := staleRE.FindStringIndex(text); loc != nil {
		return loc[1], len(text)
	}
	if loc := changeRE.FindStringIndex(text); loc != nil {
		end = len(text)
		if w := newValueRE.FindStringIndex(text[loc[1]:]); w != nil {
			end = loc[1] + w[0]
		}
		for _, f := range strings.Fields(text[loc[1]:end]) {
			if distinctValue(strings.Trim(f, ".,;:()'\"“”")) {
				return loc[1], end
			}
		}
	}
	return -1, -1
}

// yearRE is a year, which many current values share with stale ones.
var yearRE = regexp.MustCompile(`^(?:19|20)\d\d$`)

// distinctValue says whether token is a value specific enough to be
// recognised elsewhere: it holds a digit and is neither a year nor a
// bare one- or two-digit number (a day of a month).
func distinctValue(token string) bool {
	if !digitRE.MatchString(token) || yearRE.MatchString(token) {
		return false
	}
	return len(token) >= 3 || strings.ContainsAny(token, "%:")
}

// marksStale marks the clauses that state a stale value as stale.
func marksStale(cls []clause) {
	past := staleValues(cls)
	for i := range cls {
		if head, ok := newBeforeReplaced(cls[i].text); ok && !holdsPast(strings.Fields(head), past) { // compose_replacing.go
			cls[i].text, cls[i].words, cls[i].stale = head, clauseWords(head), false
			continue
		}
		if !holdsPast(strings.Fields(cls[i].text), past) {
			continue
		}
		// a recap's other items stay current (compose_stale_item.go)
		if rest, ok := withoutPastItems(cls[i].text, past); ok && pastAt(cls[i].text) < 0 {
			cls[i].text, cls[i].words, cls[i].value = rest, clauseWords(rest), digitRE.MatchString(rest)
			if holdsPast(strings.Fields(cls[i].sentence), past) { // a list answer gives no past value either
				cls[i].sentence = rest
			}
			continue
		}
		cls[i].stale = true
	}
}

// itemAt is a memory item as the composer reads it; its rank in the
// list is its age (newest first).
type itemAt struct {
	id, value string
}

// cutTo returns at most budget words of text: the window that holds the
// most of want (a part's words count twice, the question's once) and of
// values, the earliest such window, a longer clause's lead-in dropped
// first (withoutLeadIn), never ending inside a quotation
// (keepQuoteWhole). A clause within budget is whole.
func cutTo(text string, budget int, part, question map[string]bool) string {
	fields := strings.Fields(text)
	if len(fields) <= budget {
		return text
	}
	if rest, ok := withoutLeadIn(text); ok { // words go to the values, not to "Late-stage recap for staff:"
		return cutTo(rest, budget, part, question)
	}
	weight := make([]int, len(fields))
	for i, f := range fields {
		for _, w := range composeWords(f) {
			switch {
			case part[w]:
				weight[i] += 2
			case question[w]:
				weight[i]++
			}
		}
		if digitRE.MatchString(f) {
			weight[i]++
		}
	}
	best, at, sum := -1, 0, 0
	for i := range fields {
		sum += weight[i]
		if i >= budget {
			sum -= weight[i-budget]
		}
		if i >= budget-1 && sum > best {
			best, at = sum, i-budget+1
		}
	}
	from, to := keepQuoteWhole(fields, at, budget)
	from, to = keepValueWhole(fields, from, to) // compose_value_whole.go
	return strings.TrimRightFunc(strings.Join(fields[from:to], " "), func(r rune) bool {
		return unicode.IsPunct(r) && r != '%' && r != ')' && !strings.ContainsRune("\"”’'", r)
	})
}

// leadInWords is the most words a lead-in before a colon has.
const leadInWords = 7

// withoutLeadIn returns text less its lead-in: the few words before its
// first colon ("Current Lighthouse state at this point: target date …")
// when they state no value and something follows; ok is false when text
// has none.
func withoutLeadIn(text string) (string, bool) {
	i := strings.Index(text, ": ")
	if i < 0 || digitRE.MatchString(text[:i]) || len(strings.Fields(text[:i])) > leadInWords {
		return text, false
	}
	rest := strings.TrimSpace(text[i+2:])
	return rest, rest != ""
}
