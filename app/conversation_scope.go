package app

import (
	"regexp"
	"sort"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// Scope at write time: which registered scope(s) a piece of conversation
// concerns. A scope is named by the words of its id (project_maple →
// "maple"; record_patient_elena_park → "elena"), matched as whole words;
// a text that names several scopes goes to all of them at once — its
// provenance then needs every one of them, the narrowest reading. A person
// named in a text that names a project is part of the project's business;
// a person named alone makes it their record's.

// genericWords are id words that name a kind, not a thing.
var genericWords = map[string]bool{
	"project": true, "record": true, "patient": true, "case": true, "program": true, "building": true, "course": true,
	"person": true, "scope": true, "dr": true, "the": true, "and": true, "of": true,
	"clinician": true, "nurse": true, "family": true, "employee": true, "eng": true, "pm": true, "sre": true,
	"security": true, "finance": true, "legal": true, "sales": true, "manager": true, "contractor": true,
	"exec": true, "assistant": true, "hr": true, "student": true, "parent": true, "teacher": true, "staff": true,
	"agent": true, "reception": true, "scheduler": true, "pharmacist": true, "billing": true, "labtech": true,
	"social": true, "worker": true, "advisor": true, "prof": true, "ra": true, "it": true,
}

// recordPrefix marks a scope that is one principal's own record.
const recordPrefix = "record_"

// scopeInfo is one registered scope and the words that name it.
type scopeInfo struct {
	id     string
	record bool
	name   *regexp.Regexp // nil: the scope has no naming word
	// words are the scope's naming words, lowercase.
	words []string
}

// scopes lists the registered scopes (agents named ScopeAgent(id)).
func (a *App) scopes() []scopeInfo {
	var out []scopeInfo
	for _, ag := range a.view.AgentIDs() {
		id, ok := strings.CutPrefix(ag, scopePrefix)
		if _, own := scopeBase(id); !ok || !own {
			continue
		}
		s := scopeInfo{id: id, record: strings.HasPrefix(id, recordPrefix)}
		var words []string
		for _, w := range strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return r == '_' || r == '-' }) {
			if !genericWords[w] && len(w) > 1 {
				words = append(words, regexp.QuoteMeta(w))
				s.words = append(s.words, w)
			}
		}
		if s.record && len(words) > 2 {
			// A person's id is their role, then their first and last
			// name (registrar_mia_lopez): "registrar" in "final
			// registrar routing" names no one's record, "Mia" does.
			words, s.words = words[len(words)-2:], s.words[len(s.words)-2:]
		}
		if len(words) > 0 {
			pat := strings.Join(words, `[\s_-]+`)
			if s.record { // a person is named by first name
				pat = words[0]
			}
			s.name = regexp.MustCompile(`(?i)\b` + pat + `\b`)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// ScopeDecision is the write policy's decision for one text: where it goes
// and why, recorded in the fragment's event.
type ScopeDecision struct {
	Scopes      []string `json:"scopes"`
	Reason      string   `json:"reason"`
	Sensitivity []string `json:"sensitivity"`
	// inherited: the scope is the thread's, not named (conversation_thread.go).
	inherited bool
	// nested: the scope is the speaker's narrowest, not named
	// (conversation_nested.go); written for its full readers only.
	nested bool
}

// threadReason is the reason of a scope taken from the thread.
const threadReason = "the one scope of the thread's last turns the speaker works in"

// decideScope is the write policy: the scopes text names; with none named,
// the speaker's one working scope, else the one scope of the thread's last
// turns the speaker works in, else the speaker's own record.
func (a *App) decideScope(speaker, thread, text string, now access.Point) (ScopeDecision, bool) {
	d := ScopeDecision{Sensitivity: Sensitivity(text)}
	var projects, records []string
	all := a.scopes()
	for _, s := range all {
		if s.namedIn(text) { // conversation_dates.go
			if s.record {
				records = append(records, s.id)
			} else {
				projects = append(projects, s.id)
			}
		}
	}
	working, self := a.workingScopes(speaker, now)
	switch {
	case len(projects) > 0: // a person named in a project's business is the project's business
		d.Scopes, d.Reason = projects, "names the scope"
		if own := a.outsider(speaker, projects, working, self, now); own != "" {
			// Said about a scope the speaker has no part in ("keep my
			// suite out of the public program thread"): it is the
			// speaker's business too, and the narrower reading wins —
			// readers of both.
			d.Scopes, d.Reason = events.SortedSet(append(append([]string{}, projects...), own)), "names a scope the speaker has no part in, with the speaker's own"
		}
	case len(records) > 0 && len(working) == 1 && !contains(records, working[0]) && !contains(records, recordPrefix+speaker):
		// A person named by someone who works in one scope is that
		// scope's business ("Leo stays logs-only", said on the project;
		// "do not tell Daniel", said on the patient's record): writing it
		// into the named person's record would show them what was said
		// about them.
		d.Scopes, d.Reason = working, "names a person, in the speaker's one scope"
	case len(records) > 0:
		d.Scopes, d.Reason = records, "names a person's record"
		if own := a.outsider(speaker, records, working, self, now); own != "" && !contains(records, own) {
			// Said about a person by someone with no part in their record
			// ("do not tell Daniel the word tumor", said by the patient):
			// the speaker's business too, so only readers of both read
			// it — never the named person alone.
			d.Scopes, d.Reason = events.SortedSet(append(append([]string{}, records...), own)), "names a person whose record the speaker has no part in, with the speaker's own"
		}
	}
	if len(d.Scopes) > 0 {
		return d, true
	}
	personal := self != "" && (personalCredential(text) || personalMatter(text))
	nested := ""
	if !personal && len(working) != 1 {
		nested = a.nestedScope(speaker, text, now)
	}
	switch {
	case personal: // conversation_vault.go
		d.Scopes, d.Reason = []string{self}, "the speaker's own credential or restricted matter, in no scope named: the speaker's own record"
	case len(working) == 1:
		d.Scopes, d.Reason = working, "the speaker's one scope"
	case nested != "": // conversation_nested.go
		d.Scopes, d.Reason = []string{nested}, nestedReason
		d.nested = true
	case !personal && a.classScope(speaker, text, now) != "": // conversation_nested.go
		d.Scopes, d.Reason = []string{a.classScope(speaker, text, now)}, classReason
	case a.threadScope(speaker, thread, text, now) != "": // conversation_thread.go
		d.Scopes, d.Reason = []string{a.threadScope(speaker, thread, text, now)}, threadReason
		d.inherited = true
	case self != "":
		d.Scopes, d.Reason = []string{self}, "the speaker's own record (no scope named, or several possible: the narrower wins)"
	default:
		return d, false
	}
	return d, true
}

// workingScopes are the scopes speaker reads in full now, less their own
// record (returned apart as self when they hold it). A speaker who also
// takes part in another scope at any level (a summary read, a steward
// grant) has no one working scope — what they say unnamed could be about
// either — so working is then empty and the narrower reading (their own
// record) wins.
func (a *App) workingScopes(speaker string, now access.Point) (working []string, self string) {
	touched := map[string]bool{}
	gs, self := a.partScopes(speaker, now)
	for _, g := range gs {
		touched[g.base] = true
		if g.own {
			working = append(working, g.id)
		}
	}
	if len(touched) > len(working) {
		return nil, self
	}
	return working, self
}

// outsider returns the speaker's own context (their one working scope,
// else their record) when they take part in none of the named scopes at
// any level; "" otherwise.
func (a *App) outsider(speaker string, named, working []string, self string, now access.Point) string {
	part := map[string]bool{}
	for _, ag := range a.view.Agents(speaker, now) {
		if id, ok := strings.CutPrefix(ag, scopePrefix); ok {
			base, _ := scopeBase(id)
			part[base] = true
		}
	}
	for _, n := range named {
		if part[n] {
			return ""
		}
	}
	if len(working) == 1 {
		return working[0]
	}
	return self
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
