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

// A namesake of a scope ("Beacon Grant" beside the Beacon Hall program)
// is said to tell the two apart: it owns nothing there, while another
// name said in the same turn still does.
func TestNamesakeOwnsNothing(t *testing.T) {
	scopes := []scopeInfo{{id: "program_beacon_hall", name: regexp.MustCompile(`(?i)\bbeacon[\s_-]+hall\b`), words: []string{"beacon", "hall"}}}
	got := ownedNames("Kickoff for Beacon Grant and the separate Beacon Hall track; the sponsor is Northwind Freight.", scopes)
	want := []string{"Northwind Freight"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
