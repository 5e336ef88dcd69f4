package app

import (
	"regexp"
	"slices"
	"testing"
)

// ownedNames takes names of several words said mid-sentence, never a
// scope's own name, a date, or the capital that starts a sentence.
func TestOwnedNames(t *testing.T) {
	scopes := []scopeInfo{{id: "project_heron", name: regexp.MustCompile(`(?i)\bheron\b`)}}
	got := ownedNames("Current Status: the customer is Northwind Freight, per Project Heron, due Friday March 6; ask \"Blue Cedar House\"; the hall is Juniper Commons 731.", scopes)
	want := []string{"Northwind Freight", "Blue Cedar House"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
