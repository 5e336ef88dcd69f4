package app

import (
	"strings"

	"github.com/cmem/cmem/projectors/access"
)

// A personal record that no one but its owner reads, at any level, owns no
// value (withValueOwners). Ownership keeps a value with the readers of the
// scope it was first said in: restated elsewhere, it still needs them. A
// scope its owner alone reads has no readers to keep it from: no one else
// can have read the value there, so a restatement by someone else comes
// from elsewhere, and one by the owner is the owner sharing their own
// note. Letting such a record own the value would lock every later
// restatement — the finance officer's "4,090 USD remains the active
// amount", said on the case after a note to herself — to the owner alone,
// and the case's readers, the very people it is said to, would not read
// it. A record anyone else reads (a delegate, a parent's summary, a
// class read) still owns what was first said in it.

// privateRecords returns the personal records among scopes that no one
// but their owner reads at now.
func (a *App) privateRecords(scopes []string, now access.Point) map[string]bool {
	out := map[string]bool{}
	for _, s := range scopes {
		owner, ok := strings.CutPrefix(s, recordPrefix)
		if !ok {
			continue
		}
		if _, isUser := a.view.User(owner); isUser && !a.readByOthers(s, owner, now) {
			out[s] = true
		}
	}
	return out
}

// readByOthers says whether a principal other than owner may invoke any
// agent of scope (its own, summary, class, withheld or steward agent).
func (a *App) readByOthers(scope, owner string, now access.Point) bool {
	for _, u := range a.view.UserIDs() {
		if u == owner {
			continue
		}
		for _, ag := range a.view.Agents(u, now) {
			if id, ok := strings.CutPrefix(ag, scopePrefix); ok {
				if base, _ := scopeBase(id); base == scope {
					return true
				}
			}
		}
	}
	return false
}
