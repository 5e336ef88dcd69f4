package app

import (
	"strings"
	"testing"
)

// A summary keeps the logistics — when things happen — and never a
// restricted detail: a sentence of a sensitivity class, marked restricted,
// about the scope's substance or placing nothing in time is dropped; an
// identifying value or a name is replaced.
func TestRedactSummary(t *testing.T) {
	keep := map[string]bool{"heron": true}
	names := userNames([]string{"eng_maya_patel"})
	for _, c := range []struct {
		in, want string
		never    []string
	}{
		{"Heron launch window moves to May 21, 2026 at 18:00.", "Heron launch window moves to May 21, 2026 at 18:00.", nil},
		{"The Heron budget is 84,000 EUR. Kickoff is on 3 June.", "Kickoff is on 3 June.", []string{"84,000"}},
		{"The staging passphrase is heron-blue-7731. Standup is at 9 am.", "Standup is at 9 am.", []string{"7731", "passphrase"}},
		{"Elena's biopsy came back benign. Her appointment is Friday at 10:30.", "Her appointment is Friday at 10:30.", []string{"biopsy", "benign"}},
		{"The review moves to Friday with 11% of the seats.", "The review moves to Friday with [redacted] of the seats.", []string{"11"}},
		{"Confidential: Maple is acquired on Monday. Leo works on logs.", "", []string{"acquired", "Leo"}},
		{"Ticket INC-20931 is due Monday; write to ops@example.com.", "Ticket [redacted] is due Monday; write to [redacted].", []string{"20931", "example.com"}},
		{"Maya Rivera is here for the Tuesday follow-up with Dr Shah.", "[redacted] [redacted] is here for the Tuesday follow-up with [redacted] [redacted].", []string{"Maya", "Rivera", "Shah"}},
		{"Maya moves the demo to Thursday.", "[redacted] moves the demo to Thursday.", []string{"Maya"}},
		{"Marcus, anesthesia reviewed the schedule and Wednesday will not work.", "[redacted], anesthesia reviewed the schedule and Wednesday will not work.", []string{"Marcus"}},
		{"Tomorrow, the demo starts at 9 am.", "Tomorrow, the demo starts at 9 am.", nil},
		{"Keep taking levetiracetam 500 mg twice daily starting tonight.", "", []string{"levetiracetam"}},
		{"For Project Harbormark, keep the customer reference as Mariner Health.", "", []string{"Mariner"}},
		{"Delete the old Harbor House desk number by Friday.", "", []string{"Harbor House"}},
		{"Her grade in Physics on Monday was a B+.", "", []string{"B+"}},
	} {
		got, _ := redactSummary(c.in, keep, names)
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
