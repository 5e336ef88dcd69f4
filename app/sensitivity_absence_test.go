package app_test

import (
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
)

// When a home stands empty is an absence detail, which summaries drop, so
// a guest or a cleaner reading the household's summary does not learn it.
// Fails when the absence class is removed from the lexicon.
func TestHomeAbsenceIsRestricted(t *testing.T) {
	for _, s := range []string{
		"We are away from the Quill home from May 20 to May 27, so the house is empty that week.",
		"From June 3 nobody is home until the 10th.",
		"The flat will be empty over the holidays, back on January 4.",
	} {
		if !slices.Contains(app.Sensitivity(s), "absence") {
			t.Errorf("%q: classes %v, want absence", s, app.Sensitivity(s))
		}
	}
	for _, s := range []string{"Ben cleans the home every Thursday at 10:00.", "Dr. Shah is away at a conference until May 12."} {
		if slices.Contains(app.Sensitivity(s), "absence") {
			t.Errorf("%q is no home's absence: %v", s, app.Sensitivity(s))
		}
	}
}
