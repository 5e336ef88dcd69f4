package app

import "strings"

// A name that holds one of a scope's naming words without being that
// scope's name ("Beacon Grant" beside the Beacon Hall program, "Northwind
// Fieldworks" beside project Northwind) is its namesake: speakers say it
// to tell the two apart ("Beacon Grant is Maya's private case; Beacon
// Hall is the public program"), so it is not a value of that scope and
// owns nothing there (conversation_names.go). Taking it for one would
// lock every later note about the namesake — said in its own record or
// case — to the readers of the scope it was contrasted with, readers who
// are by design someone else.

// namesake says whether name holds a naming word of sc.
func namesake(name string, sc scopeInfo) bool {
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if contains(sc.words, w) {
			return true
		}
	}
	return false
}
