package app

import (
	"slices"
	"testing"
)

// A request naming a numbered room erases that room, not every note that
// shares the building's name; the current room it keeps stays.
func TestErasureOfANumberedRoomSparesItsNamesakes(t *testing.T) {
	for _, c := range []struct {
		sentence string
		want     []string
	}{
		{"Deletion request acknowledged: remove the earlier private suite Juniper Annex Suite 730 from active memory; the current active suite remains Juniper Annex Suite 731.", []string{"Juniper Annex Suite 730"}},
		{"Delete the earlier bay assignment Lab Annex 313 from active memory.", []string{"Lab Annex 313"}},
		// a phone number is a value of its own: the name stays a target too
		{"Deleted temporary backup contact: Harbor House 415-555-0126 and alias Rina.", []string{"415-555-0126", "Harbor House", "Rina"}},
	} {
		got := withoutKept(c.sentence, erasureTargets(c.sentence, nil))
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: targets %q, want %q", c.sentence, got, c.want)
		}
	}
}
