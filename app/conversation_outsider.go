package app

import "strings"

// A speaker who names a scope they take no part in (financial aid, who
// works on a student's record, saying "Lina's Atlas stipend is now 2,350
// USD" of a research project they do not read) cannot carry that scope's
// content: they read none of it, and the values first said there still
// need it (rule 5, conversation_owners.go). What they say is their own
// knowledge, their own context's business — the person's record they
// work on, else their own record. Written to the named scope and their
// context at once, only readers of both would read it: the colleagues on
// that record who are not on the project, the very people the statement
// is for, would not, and the speaker would not read their own words back.
// So such a turn goes to the speaker's context alone (outsideScope) when
// that context is a personal record — a project member speaking of
// another project keeps the narrower reading of both, the classic
// cross-project leak — and is written for its full readers only: a
// summary reader of the record (a parent), a class reader or a delegate
// read nothing of it, as with a nested scope (conversation_nested.go).
// Talk of removing something or limiting an audience keeps the narrower
// reading (threadStays): the named scope is where a value is being erased.

// outsideReason is the reason of a turn kept in the speaker's own context.
const outsideReason = "names a scope the speaker has no part in: the speaker's own context alone, for its full readers"

// outsideScope returns own when a turn naming scopes the speaker takes no
// part in goes to the speaker's own context alone: own is a personal
// record and text keeps no narrower reading; "" otherwise.
func outsideScope(own, text string) string {
	if !strings.HasPrefix(own, recordPrefix) || threadStays.MatchString(text) {
		return ""
	}
	return own
}
