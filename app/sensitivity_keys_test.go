package app_test

import (
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
)

// Where a key is kept opens a door as a code does: it is a door_codes
// detail, which summaries drop and guests do not read. Fails when the key
// phrases leave the door_codes class.
func TestKeyLocationsAreDoorCodes(t *testing.T) {
	for _, s := range []string{
		"From Friday the spare key is under the blue planter by the back door.",
		"The key is kept behind the mailbox.",
		"The lockbox is on the side gate.",
		"The garage opener stays in the blue car.",
	} {
		if !slices.Contains(app.Sensitivity(s), "door_codes") {
			t.Errorf("%q: classes %v, want door_codes", s, app.Sensitivity(s))
		}
	}
	if c := app.Sensitivity("The key takeaway from Friday's review is the timeline."); slices.Contains(c, "door_codes") {
		t.Errorf("a key takeaway is no door detail: %v", c)
	}
}
