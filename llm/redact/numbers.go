package redact

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// IBAN-like: country code, two check digits, then 11–30 alphanumerics in
// print (groups of four) or electronic form. The check digits are not
// verified on purpose: a mistyped IBAN is still someone's account number.
var ibanRE = regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b`)

func redactIBANs(s string) (string, int) {
	var spans [][2]int
	for _, m := range ibanRE.FindAllStringIndex(s, -1) {
		bban := strings.ReplaceAll(s[m[0]+4:m[1]], " ", "")
		// Shouted words ("AB12 WORD WORD WORD") are not accounts: real BBANs
		// are mostly digits.
		if len(bban) < 11 || len(bban) > 30 || countDigits(bban) < 6 {
			continue
		}
		spans = append(spans, [2]int{m[0], m[1]})
	}
	return replaceSpans(s, spans, PlaceholderIBAN), len(spans)
}

// A card candidate is a run of digit groups separated by single spaces or
// dashes; the card itself may be any whole-group window of it.
var digitGroupsRE = regexp.MustCompile(`\d+(?:[ \-]\d+)*`)

func redactCards(s string) (string, int) {
	var spans [][2]int
	for _, m := range digitGroupsRE.FindAllStringIndex(s, -1) {
		if !numberBoundary(s, m[0], m[1]) {
			continue
		}
		spans = append(spans, cardSpans(s, m[0], m[1])...)
	}
	return replaceSpans(s, spans, PlaceholderCard), len(spans)
}

// cardSpans finds, left to right, the longest whole-group windows of the
// run s[lo:hi] that hold 13–19 digits and pass the Luhn check. Windows of
// several groups need groups of at least three digits (4-4-4-4, 4-6-5),
// so that runs of small numbers are not taken for cards.
func cardSpans(s string, lo, hi int) [][2]int {
	type group struct{ start, end int }
	var groups []group
	start := lo
	for i := lo; i <= hi; i++ {
		if i == hi || s[i] == ' ' || s[i] == '-' {
			groups = append(groups, group{start, i})
			start = i + 1
		}
	}
	var spans [][2]int
	for i := 0; i < len(groups); {
		found := -1
		// 19 digits span at most 19 groups.
		for j := min(len(groups)-1, i+18); j >= i; j-- {
			digits, ok := "", true
			for k := i; k <= j; k++ {
				g := s[groups[k].start:groups[k].end]
				if j > i && len(g) < 3 {
					ok = false
					break
				}
				digits += g
			}
			if ok && len(digits) >= 13 && len(digits) <= 19 && luhn(digits) {
				found = j
				break
			}
		}
		if found < 0 {
			i++
			continue
		}
		spans = append(spans, [2]int{groups[i].start, groups[found].end})
		i = found + 1
	}
	return spans
}

// luhn reports whether the digit string passes the Luhn checksum.
func luhn(digits string) bool {
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// A phone candidate is a maximal run of digits and the separators phones
// use, starting with an optional + or (.
var phoneRunRE = regexp.MustCompile(`[+(]?\d(?:[\d().\- ]*\d)?`)

// Shapes that look like phones by digit count but are not.
// Dates match as a prefix, because a time often follows them in the same
// run ("2024-01-15 10:30" is the run "2024-01-15 10").
var notPhoneRE = []*regexp.Regexp{
	regexp.MustCompile(`^\d{4}[\-./]\d{1,2}[\-./]\d{1,2}(?:\s|$)`),   // 2024-01-15
	regexp.MustCompile(`^\d{1,2}[\-./]\d{1,2}[\-./]\d{2,4}(?:\s|$)`), // 15.01.2024
	regexp.MustCompile(`^\d{1,3}(?:\.\d{1,3}){3}$`),                  // 192.168.10.10
	regexp.MustCompile(`^\d{4} ?- ?\d{4}$`),                          // 1990-2024
}

func redactPhones(s string) (string, int) {
	var spans [][2]int
	for _, m := range phoneRunRE.FindAllStringIndex(s, -1) {
		if numberBoundary(s, m[0], m[1]) && isPhone(s[m[0]:m[1]]) {
			spans = append(spans, [2]int{m[0], m[1]})
		}
	}
	return replaceSpans(s, spans, PlaceholderPhone), len(spans)
}

// isPhone decides whether a run is a phone number:
//   - 7 to 15 digits (E.164 allows at most 15), and not a date, year range
//     or IPv4 address;
//   - with a leading +: a phone;
//   - without separators: a phone only with a national trunk prefix 0 and
//     at least 10 digits (bare digit runs are more often ids and amounts);
//   - with separators: 2–6 groups, the first of 1–5 digits, the others of
//     2–5, at least one of 3 or more; not thousands grouping (1 000 000);
//     dot-only separators need 10 digits (versions, decimals).
func isPhone(run string) bool {
	d := countDigits(run)
	if d < 7 || d > 15 {
		return false
	}
	for _, re := range notPhoneRE {
		if re.MatchString(run) {
			return false
		}
	}
	if run[0] == '+' {
		return d >= 8
	}
	groups := strings.FieldsFunc(run, func(r rune) bool { return r < '0' || r > '9' })
	if len(groups) == 1 {
		return run[0] == '0' && d >= 10
	}
	if len(groups) > 6 || len(groups[0]) > 5 {
		return false
	}
	long, thousands := false, groups[0][0] != '0' && len(groups[0]) <= 3
	for i, g := range groups {
		if len(g) >= 3 {
			long = true
		}
		if i > 0 && (len(g) < 2 || len(g) > 5) {
			return false
		}
		if i > 0 && len(g) != 3 {
			thousands = false
		}
	}
	if !long || (thousands && !strings.Contains(run, "(")) {
		return false
	}
	if strings.Trim(run, "0123456789.") == "" && d < 10 {
		return false
	}
	return true
}

// numberBoundary reports whether s[lo:hi] stands alone: not glued to
// letters or digits ("v1.2", "A4"), not the tail of an identifier
// ("CVE-2024-12345"), and not part of a decimal or a thousands-separated
// amount.
func numberBoundary(s string, lo, hi int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:lo])
	after, size := utf8.DecodeRuneInString(s[hi:])
	if isWordRune(before) || isWordRune(after) || before == '.' || before == ',' {
		return false
	}
	// Identifiers glued by a joiner: CVE-2024-12345, ticket/20240115.
	if before == '-' || before == '/' || before == '#' {
		prev, _ := utf8.DecodeLastRuneInString(s[:lo-1])
		if isWordRune(prev) {
			return false
		}
	}
	if after == '.' || after == ',' {
		next, _ := utf8.DecodeRuneInString(s[hi+size:])
		if next >= '0' && next <= '9' {
			return false
		}
	}
	return true
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}
