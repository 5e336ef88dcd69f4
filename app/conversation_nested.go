package app

import (
	"strings"

	"github.com/cmem/cmem/projectors/access"
)

// A speaker who takes part in several scopes and names none of them
// (staff on a student's record and on that student's case: "the current
// private site string remains Pine Ridge Annex Classroom 5") could be
// speaking of any of them, so which one is unsure. When one of their
// scopes is read in full only by principals who read every scope the
// speaker takes part in, in full — its readers are inside each of the
// others' — a turn written there reaches no one who does not already read
// whichever scope it is about: it is the narrowest scope the speaker
// works in, and the turn goes there (nestedScope). When the speaker's
// scopes are not nested (a nurse of two patients: each patient reads only
// their own record), nothing is nested and the narrower reading stands,
// the speaker's own record.
//
// Only full readers count, so such a turn is written for its scope's full
// readers only, like a turn whose scope came from the thread (inherited):
// a parent's summary of the student's record is no read of the case the
// turn may be about. Talk of removing something and a turn that limits its
// own audience keep the narrower reading (threadStays): the readers of the
// scope are the ones a restated value is being erased from.

// nestedReason is the reason of a scope chosen because it is nested.
const nestedReason = "no scope named; the one scope of the speaker's whose full readers read every scope the speaker takes part in (the narrowest)"

// nestedScope returns the scope of speaker's whose full readers all read,
// in full, every scope speaker takes part in at any level (their own
// record aside); "" when the speaker takes part in fewer than two scopes,
// none is nested so, or text keeps the narrower reading. With several
// such scopes (the same readers), the first by id is taken.
func (a *App) nestedScope(speaker, text string, now access.Point) string {
	if threadStays.MatchString(text) {
		return ""
	}
	touched, full := map[string]bool{}, []string{}
	gs, _ := a.partScopes(speaker, now)
	for _, g := range gs {
		touched[g.base] = true
		if g.own {
			full = append(full, g.id)
		}
	}
	if len(touched) < 2 || len(full) == 0 {
		return ""
	}
	readers := a.fullReaders(now)
	best := ""
	for _, n := range full {
		if !readersInsideAll(readers[n], touched, readers) {
			continue
		}
		if best == "" || n < best {
			best = n
		}
	}
	return best
}

// readersInsideAll says whether every principal of rs reads every scope
// of scopes in full.
func readersInsideAll(rs map[string]bool, scopes map[string]bool, readers map[string]map[string]bool) bool {
	if len(rs) == 0 {
		return false
	}
	for s := range scopes {
		for u := range rs {
			if !readers[s][u] {
				return false
			}
		}
	}
	return true
}

// fullReaders maps each scope to the principals that read it in full now.
func (a *App) fullReaders(now access.Point) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, u := range a.view.UserIDs() {
		for _, ag := range a.view.Agents(u, now) {
			id, ok := strings.CutPrefix(ag, scopePrefix)
			if !ok {
				continue
			}
			if _, own := scopeBase(id); !own {
				continue
			}
			if out[id] == nil {
				out[id] = map[string]bool{}
			}
			out[id][u] = true
		}
	}
	return out
}

// A specialist who takes part in one scope only, and only for one class of
// its details (campus IT reading a case's credentials), speaks, unnamed,
// of that scope: their part in it is that class, so the turn is that
// scope's business (classScope), read by its full readers and, for its
// credentials, by the specialist again through the class read. A summary
// reader (a parent) or a reader of several scopes is not one: with them
// the narrower reading stands.

// classReason is the reason of a scope taken from the speaker's one class
// read.
const classReason = "no scope named; the one scope the speaker reads, for one class of its details"

// classScope returns the one scope speaker takes part in (their own record
// aside) when every grant they hold on it is a class read; "" otherwise,
// and for text that keeps the narrower reading (threadStays).
func (a *App) classScope(speaker, text string, now access.Point) string {
	if threadStays.MatchString(text) {
		return "" // talk of removing something keeps the narrower reading, as above
	}
	found := ""
	gs, _ := a.partScopes(speaker, now)
	for _, g := range gs {
		if found != "" && g.base != found {
			return ""
		}
		class, isClass := strings.CutPrefix(g.id, g.base+"-")
		if _, known := sensitivityLexicon[class]; !isClass || !known {
			return ""
		}
		found = g.base
	}
	return found
}
