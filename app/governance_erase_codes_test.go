package app

import (
	"slices"
	"testing"
)

// A short code is named by its code word; a year or a count beside it is
// not.
func TestCodeNumbers(t *testing.T) {
	for s, want := range map[string][]string{
		"Please delete the old Quill home keypad code 4417 from memory": {"4417"},
		"forget the old gate code 4417 set in 2024":                     {"4417"},
		"remove my PIN 5581":     {"5581"},
		"the alarm code is 3038": {"3038"},
		"please delete the meeting notes from 2024 and the 3 room plans": nil,
	} {
		if got := codeNumbers(s); !slices.Equal(got, want) {
			t.Errorf("codeNumbers(%q) = %v, want %v", s, got, want)
		}
	}
}
