package offline

import (
	"regexp"
	"strings"
	"unicode"
)

// A chat turn opens with courtesy before it tells anything: "Hey Gina, I
// had to shut down my bank account", "Thanks, Maria! Improving education
// is …", "Yeah, for sure! This trilogy …". Such an opener is never the
// answer, yet cut at its comma it is a short clause of its own that a span
// keeps ("Hey Gina"). dropOpener removes it.

// openerPartRE ends one part of an opener: a comma, "!" or "." and the
// spaces after it, or a dash between spaces.
var openerPartRE = regexp.MustCompile(`[,!.]+\s+|\s[-–—]\s`)

// courtesyWords are the words an opener is made of, besides the names of
// the people it addresses.
var courtesyWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`hey hi hello thanks thank you so much wow yeah yes yep yup oh ah aw aww haha
	omg ok okay sure cool awesome great nice totally definitely absolutely right true exactly well hmm
	congrats congratulations for sure glad woo whoa lol man dude good morning evening afternoon indeed agreed`) {
		m[w] = true
	}
	return m
}()

// dropOpener returns text without the opener parts at its start (each
// made only of courtesy words and capitalised names), or text when
// nothing would be left.
func dropOpener(text string) string {
	rest := strings.TrimSpace(text)
	for dropped := false; ; dropped = true {
		loc := openerPartRE.FindStringIndex(rest)
		if loc == nil || !isOpener(rest[:loc[0]], dropped) {
			break
		}
		next := strings.TrimSpace(rest[loc[1]:])
		if len(contentWords(next)) < 2 {
			break
		}
		rest = next
	}
	return rest
}

// isOpener reports whether part holds nothing but courtesy words and
// capitalised names, and at least one courtesy word unless it follows
// one (addressed: the "Maria" of "Thanks, Maria!").
func isOpener(part string, addressed bool) bool {
	courtesy := addressed && strings.TrimSpace(part) != ""
	for _, f := range strings.Fields(part) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		switch {
		case w == "":
		case courtesyWords[strings.ToLower(w)]:
			courtesy = true
		case unicode.IsUpper([]rune(w)[0]) && w != "I":
		default:
			return false
		}
	}
	return courtesy
}
