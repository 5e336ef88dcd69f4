package vectors

import (
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"
)

// runeTokens is ValueTokens as it was written first, one rune at a time:
// the reference the byte loop must equal.
func runeTokens(value string) int {
	n, in := 0, false
	for _, r := range value {
		tok := unicode.IsLetter(r) || unicode.IsDigit(r)
		if r < utf8.RuneSelf {
			tok = 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
		}
		if tok && !in {
			n++
		}
		in = tok
	}
	return n
}

// ValueTokens counts as the rune loop does on ASCII, on text with runes
// beyond it anywhere (a word running across the switch included), and on
// invalid UTF-8.
func TestValueTokensMatchesRuneLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "Z", "7", " ", ",", "-", "\n", "é", "ß", "İ", "日本", "٣", "\u0301", "\xff", "\xe2\x82", "— ", "x"}
	for i := range 20_000 {
		var b []byte
		for range rng.IntN(24) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		s := string(b)
		if got, want := ValueTokens(s), runeTokens(s); got != want {
			t.Fatalf("case %d: ValueTokens(%q) = %d, want %d", i, s, got, want)
		}
	}
	for s, want := range map[string]int{"": 0, "Lyon is known, for bouchons!": 5, "crème-brûlée 2x": 3, "a日本b": 1} {
		if got := ValueTokens(s); got != want {
			t.Errorf("ValueTokens(%q) = %d, want %d", s, got, want)
		}
	}
}
