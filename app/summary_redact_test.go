package app

import (
	"strings"
	"testing"
)

// A summary keeps dates, times, names and plain statements, and never a
// restricted detail: a sentence of a sensitivity class or marked
// restricted is dropped, an identifying value is replaced.
func TestRedactSummary(t *testing.T) {
	for _, c := range []struct {
		in, want string
		never    []string
	}{
		{"Heron launch window moves to May 21, 2026 at 18:00.", "Heron launch window moves to May 21, 2026 at 18:00.", nil},
		{"The Heron budget is 84,000 EUR. Kickoff is on 3 June.", "The Heron budget is [redacted]. Kickoff is on 3 June.", []string{"84,000"}},
		{"The staging passphrase is heron-blue-7731. Standup is at 9 am.", "Standup is at 9 am.", []string{"7731", "passphrase"}},
		{"Elena's biopsy came back benign. Her appointment is Friday at 10:30.", "Her appointment is Friday at 10:30.", []string{"biopsy", "benign"}},
		{"The discount cap is 11% for Maple.", "The discount cap is [redacted] for Maple.", []string{"11"}},
		{"Confidential: Maple is being acquired. Leo works on logs.", "Leo works on logs.", []string{"acquired"}},
		{"Use token atl_lab_TMP_4Q7L-X2MP-8V1K for the lab.", "", []string{"4Q7L"}},
		{"Ticket INC-20931 tracks it; write to ops@example.com.", "Ticket [redacted] tracks it; write to [redacted].", []string{"20931", "example.com"}},
		{"Lina's stipend is 2,200 USD per month.", "Lina's stipend is [redacted] per month.", []string{"2,200"}},
		{"Her grade in Physics was a B+.", "", []string{"B+"}},
	} {
		got, _ := redactSummary(c.in)
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
		for _, n := range c.never {
			if strings.Contains(got, n) {
				t.Errorf("%q: summary %q carries %q", c.in, got, n)
			}
		}
	}
}
