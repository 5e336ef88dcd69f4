package app

import "regexp"

// A place is often a name and a number: "Juniper Annex Suite 730" beside
// "Juniper Annex Suite 731". A request to erase the first names the room,
// not the building: erasing "Juniper Annex Suite" would take every note of
// the annex with it, the current room included. So a name followed by a
// plain number (a room, a bay, a locker) is erased with its number, as one
// value. A number that is part of a longer value (a phone number
// "415-555-0126" after "Harbor House") leaves the name a target of its
// own, as before.

// roomNumberRE is a plain number right after a name: up to five digits,
// an optional letter ("4B"), then the end of a word.
var roomNumberRE = regexp.MustCompile(`^\s+\d{1,5}[A-Za-z]?(?:$|[\s.,;:)])`)

// numberEndRE is what roomNumberRE takes around the number itself.
var numberEndRE = regexp.MustCompile(`[\s.,;:)]+`)

// numberedName returns the name at loc in sentence, with the plain number
// that follows it when there is one.
func numberedName(sentence string, loc []int) string {
	name := sentence[loc[0]:loc[1]]
	if m := roomNumberRE.FindString(sentence[loc[1]:]); m != "" {
		return name + " " + numberEndRE.ReplaceAllString(m, " ")[1:]
	}
	return name
}
