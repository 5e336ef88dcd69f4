package offline

import (
	"strings"
	"testing"
)

// A cut never ends inside a quoted phrase: the whole phrase, or none of it.
func TestCutKeepsAQuotationWhole(t *testing.T) {
	text := `target date September 2, 2026, budget 228,000 USD, discount 8%, vendor BlueSentry, and broad customer wording "the insurance automation pilot" for every outside update`
	q := map[string]bool{"target": true, "date": true, "budget": true, "wording": true}
	got := cutTo(text, 17, q, q)
	if !strings.Contains(got, `"the insurance automation pilot"`) {
		t.Fatalf("cut %q lost the quoted wording", got)
	}
	if n := len(strings.Fields(got)); n > 17 {
		t.Fatalf("cut %q has %d words, over 17", got, n)
	}
}

func TestCutEndsBeforeAQuotationThatDoesNotFit(t *testing.T) {
	text := `the team agreed on wording "a very long phrase that keeps going on and on well past any share" today`
	q := map[string]bool{"team": true, "agreed": true}
	got := cutTo(text, 7, q, q)
	if strings.ContainsAny(got, `"`) {
		t.Fatalf("cut %q ends inside the quotation", got)
	}
}

func TestOpenQuoteAt(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{`wording "the logistics pilot" stays`, -1},
		{`wording "the logistics`, 1},
		{`wording 'the airline`, 1},
		{`Sterling's wording 'the airline pilot'.`, -1},
		{`label "bridge-84".`, -1},
	}
	for _, c := range cases {
		if got := openQuoteAt(strings.Fields(c.text)); got != c.want {
			t.Errorf("openQuoteAt(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
