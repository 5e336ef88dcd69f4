package app

import (
	"strings"
	"testing"
)

// An access code is campus IT's business and a door's alike: a
// credentials-only reader reads a sentence whose other class comes only
// from that shared term, never a door's access code, never a sentence
// with a third class; a sentence saying only how long the code holds goes
// with the code, and a sentence of no class elsewhere does not.
func TestClassReadSharedTermsAndValidity(t *testing.T) {
	for _, c := range []struct {
		text, class string
		want, not   []string
	}{
		{"Token rotation note: the new active case access code is lum_TMP_7Q4N. The new code expires May 24 at 20:00. The room is LH-318.",
			"credentials", []string{"lum_TMP_7Q4N", "expires May 24"}, []string{"LH-318"}},
		{"The front door access code is 4417.", "credentials", nil, []string{"4417"}},
		{"The front door access code is 4417.", "door_codes", []string{"4417"}, nil},
		{"The access code is apl_7Q and the diagnosis is flu.", "credentials", nil, []string{"apl_7Q"}},
		{"Her housing lease expires in June.", "credentials", nil, []string{"June"}},
		{"The portal token is ptl_9K. Her lease expires in June because the room was booked late for the diagnosis.", "credentials",
			[]string{"ptl_9K"}, []string{"June"}},
	} {
		got := classSentences(c.text, c.class)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s read of %q = %q: want %q in it", c.class, c.text, got, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s read of %q = %q: %q must not be in it", c.class, c.text, got, n)
			}
		}
	}
}
