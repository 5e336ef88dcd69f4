package textindex

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenize lower-cases s and splits it on everything that is not a letter
// or a digit: "Crème-brûlée, 2x" → ["crème" "brûlée" "2x"]. It does not
// stem; Index applies its stemmer (Config.Stem) after Tokenize.
func Tokenize(s string) []string { return appendTokens(nil, s) }

// appendTokens appends Tokenize(s) to dst: strings.FieldsFunc over
// strings.ToLower(s) with letters and digits as token runes, with ASCII
// tested by a table rather than the unicode package. The tokens share
// the lower-cased text's memory.
func appendTokens(dst []string, s string) []string {
	if out, ok := appendLowerASCIITokens(dst, s); ok {
		return out
	}
	s = strings.ToLower(s) // s itself when nothing changes
	start := -1
	for i := 0; i < len(s); {
		c, size := s[i], 1
		var tok bool
		if c < utf8.RuneSelf {
			tok = asciiToken[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			tok = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		switch {
		case tok && start < 0:
			start = i
		case !tok && start >= 0:
			dst = append(dst, s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// appendLowerASCIITokens is appendTokens for a text of ASCII without
// capitals, in one pass rather than ToLower's and then the split's; it
// reports false, having appended nothing, on any other text.
func appendLowerASCIITokens(dst []string, s string) ([]string, bool) {
	n, start := len(dst), -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return dst[:n], false
		}
		switch tok := asciiToken[c]; {
		case tok && start < 0:
			start = i
		case !tok && start >= 0:
			dst = append(dst, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst, true
}

// asciiToken marks the ASCII letters and digits.
var asciiToken = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	return t
}()

// Stem is the light English stemmer Config.Stem applies: it folds the
// common inflections a question and its answer disagree on ("dogs"/"dog",
// "painted"/"painting"/"paint", "studies"/"study") and leaves everything
// else alone. It is deliberately weaker than Porter's algorithm, which
// merges words that mean different things ("university"/"universe");
// a word of three letters or fewer, or one with a letter outside a–z, is
// never changed. Stems need not be words ("hike" → "hik"): they are only
// compared with each other.
func Stem(w string) string {
	n := len(w)
	if n <= 3 || !isASCIILower(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		w = w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case strings.HasSuffix(w, "ing") && n > 5 && hasVowel(w[:n-3]):
		w = undouble(w[:n-3])
	case strings.HasSuffix(w, "ed") && n > 4 && hasVowel(w[:n-2]):
		w = undouble(w[:n-2])
	case strings.HasSuffix(w, "es") && n > 4 && strings.ContainsRune("sxz", rune(w[n-3])):
		w = w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	// A final silent e goes, so "hike", "hiked" and "hiking" meet at "hik".
	if n := len(w); n > 3 && w[n-1] == 'e' && w[n-2] != 'e' {
		w = w[:n-1]
	}
	return w
}

// undouble turns "stopp" (from "stopping") into "stop", so the stem of an
// inflected form meets the stem of the bare word.
func undouble(s string) string {
	n := len(s)
	if n >= 3 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

func isASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
