package redact

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind names a class of sensitive text.
type Kind string

// The kinds Apply recognises, in the order it applies them.
const (
	KindEmail Kind = "email"
	KindIBAN  Kind = "iban"
	KindCard  Kind = "card"
	KindPhone Kind = "phone"
	KindUser  Kind = "user"
)

// Placeholders that replace each kind.
const (
	PlaceholderEmail = "[EMAIL]"
	PlaceholderIBAN  = "[IBAN]"
	PlaceholderCard  = "[CARD]"
	PlaceholderPhone = "[PHONE]"
	PlaceholderUser  = "[USER]"
)

// Rules selects what Apply redacts. The zero value redacts nothing.
type Rules struct {
	Emails bool // e-mail addresses
	Phones bool // phone numbers (see the package rules on what counts)
	Cards  bool // payment card numbers: 13–19 digits, Luhn-valid
	IBANs  bool // IBAN-like account numbers
	// Names are matched whole-word and case-insensitively (registered user
	// ids and display names). Names shorter than two letters are ignored:
	// they would erase ordinary words.
	Names []string
}

// All returns rules that redact every kind, with names as the user names.
func All(names ...string) Rules {
	return Rules{Emails: true, Phones: true, Cards: true, IBANs: true, Names: names}
}

// Finding reports how many matches of one kind Apply replaced.
type Finding struct {
	Kind  Kind
	Count int
}

// Apply returns text with every match of the enabled rules replaced by its
// placeholder, and one Finding per kind that matched (in application
// order). Kinds are applied e-mail, IBAN, card, phone, name: earlier kinds
// claim text first, so an e-mail's local part is never reported as a name
// and an IBAN's digits never as a card.
func Apply(text string, r Rules) (string, []Finding) {
	var findings []Finding
	step := func(k Kind, enabled bool, f func(string) (string, int)) {
		if !enabled {
			return
		}
		var n int
		text, n = f(text)
		if n > 0 {
			findings = append(findings, Finding{Kind: k, Count: n})
		}
	}
	step(KindEmail, r.Emails, redactEmails)
	step(KindIBAN, r.IBANs, redactIBANs)
	step(KindCard, r.Cards, redactCards)
	step(KindPhone, r.Phones, redactPhones)
	if re := namesPattern(r.Names); re != nil {
		step(KindUser, true, func(s string) (string, int) { return redactNames(s, re) })
	}
	return text, findings
}

// Count sums the counts of findings.
func Count(findings []Finding) int {
	n := 0
	for _, f := range findings {
		n += f.Count
	}
	return n
}

var emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}`)

func redactEmails(s string) (string, int) {
	n := 0
	out := emailRE.ReplaceAllStringFunc(s, func(string) string {
		n++
		return PlaceholderEmail
	})
	return out, n
}

// replaceSpans replaces the given non-overlapping, ordered byte spans.
func replaceSpans(s string, spans [][2]int, placeholder string) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(placeholder)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// namesPattern compiles the names into one case-insensitive alternation,
// longest first so that "Anna Lena" wins over "Anna".
func namesPattern(names []string) *regexp.Regexp {
	var alts []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		key := strings.ToLower(n)
		if utf8.RuneCountInString(n) < 2 || seen[key] {
			continue
		}
		seen[key] = true
		alts = append(alts, n)
	}
	if len(alts) == 0 {
		return nil
	}
	sort.SliceStable(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	for i, a := range alts {
		alts[i] = regexp.QuoteMeta(a)
	}
	return regexp.MustCompile(`(?i)(?:` + strings.Join(alts, "|") + `)`)
}

func redactNames(s string, re *regexp.Regexp) (string, int) {
	var spans [][2]int
	for _, m := range re.FindAllStringIndex(s, -1) {
		before, _ := utf8.DecodeLastRuneInString(s[:m[0]])
		after, _ := utf8.DecodeRuneInString(s[m[1]:])
		// RE2's \b is ASCII-only; user names need not be.
		if isWordRune(before) || isWordRune(after) {
			continue
		}
		// A placeholder such as [EMAIL] is not a user called "email".
		if before == '[' && after == ']' {
			continue
		}
		spans = append(spans, [2]int{m[0], m[1]})
	}
	return replaceSpans(s, spans, PlaceholderUser), len(spans)
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
