package app

import (
	"context"
	"regexp"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// Credentials said into a personal record are kept apart from it. A
// token, password or door code a person states in their own record (or
// in a record they speak about) is not the record's business: it belongs
// to whatever the credential opens, and the record's readers — the
// speaker included, an advisor, a manager — must not get it back through
// the record ("I noted the new token is …", said before the system it
// opens was named). Such a turn is written to the record and to the
// record's vault for that class (the scope ClassAgent(record, class)
// reads), so reading it needs both: only a principal the mapping gives
// the record's credentials class (by limited_to) and the record itself
// reads it; by default no one. The turn's other sentences stay readable
// through the record as a derived copy, so a credential said in passing
// does not take the rest of the turn with it. The decision is a note in
// the fragment's event.

// doorDigitsRE is a code of digits (a keypad code, a PIN).
var doorDigitsRE = regexp.MustCompile(`\b\d{3,8}#?\b`)

// personalCredentialRE is a credential the speaker calls their own ("my
// new bank card PIN", "my password").
var personalCredentialRE = regexp.MustCompile(`(?i)\bmy\s+(?:[\w-]+\s+){0,3}(?:pin|password|passcode|passphrase|login|card number)s?\b`)

// personalCredential says whether text states a credential of the
// speaker's own, with its value. Said without naming a scope, it belongs to
// the speaker's record (and so to its vault), not to the shared scope they
// work in: a resident's bank PIN is not the household's.
func personalCredential(text string) bool {
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		if personalCredentialRE.MatchString(s) && credentialValue(s, "credentials") {
			return true
		}
	}
	return false
}

// personalMatterRE is a restricted matter the speaker calls their own
// ("my therapy appointment", "my salary"), not one of someone in their
// care ("my patient's medication" is the patient's).
var personalMatterRE = regexp.MustCompile(`(?i)\bmy\s+(?:(?:new|current|next|own|latest|last|annual|monthly|weekly|blood|bank|credit)\s+){0,2}(?:therapy|therapist|diagnosis|medications?|prescriptions?|dose|lab results?|biopsy|pregnancy|symptoms?|treatment|salary|bonus|raise|performance review|debt|loan|lawsuit|divorce|bank account|card|balance)\b`)

// personalMatter says whether text speaks of a restricted matter of the
// speaker's own. Said without naming a scope it belongs to the speaker's
// record, not to the shared scope they work in: a resident's therapy is
// not the household's, an employee's raise not the project's.
func personalMatter(text string) bool {
	return personalMatterRE.MatchString(text)
}

// vaultClasses are the sensitivity classes a personal record keeps apart.
var vaultClasses = []string{"credentials", "door_codes"}

// vaulted returns d with the vault scopes of its records for the
// credential classes text carries a value of, and the classes; d is
// unchanged when d names a scope other than a personal record or text
// holds no credential value.
func vaulted(text string, d ScopeDecision) (ScopeDecision, []string) {
	for _, s := range d.Scopes {
		if !strings.HasPrefix(s, recordPrefix) {
			return d, nil
		}
	}
	var classes []string
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		cls := Sensitivity(s)
		for _, c := range vaultClasses {
			if contains(cls, c) && credentialValue(s, c) && !contains(classes, c) {
				classes = append(classes, c)
			}
		}
	}
	if len(classes) == 0 {
		return d, nil
	}
	out := d
	out.Scopes = append([]string{}, d.Scopes...)
	for _, s := range d.Scopes {
		for _, c := range classes {
			out.Scopes = append(out.Scopes, s+"-"+c)
		}
	}
	out.Scopes = events.SortedSet(out.Scopes)
	out.Reason = d.Reason + "; a " + strings.Join(classes, ",") + " value said in a personal record is kept in the record's vault"
	return out, classes
}

// credentialValue says whether sentence s holds a value of class c: a
// token or code for credentials, a run of digits for a door code.
func credentialValue(s, c string) bool {
	if c == "door_codes" {
		return doorDigitsRE.MatchString(s)
	}
	return codeRE.MatchString(s) || doorDigitsRE.MatchString(s)
}

// ensureVault registers the agents of d's vault scopes.
func (a *App) ensureVault(ctx context.Context, by domain.Identity, d ScopeDecision) error {
	for _, s := range d.Scopes {
		if _, own := scopeBase(s); !own {
			if err := a.ensureAgent(ctx, domain.Identity{ID: by.ID, Admin: true}, ScopeAgent(s), scopeDescription(s)+" (vault)"); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeOutsideVault writes, through the records of d (less their vaults),
// each fragment's sentences outside classes, derived from the original.
func (a *App) writeOutsideVault(ctx context.Context, by domain.Identity, frags []domain.Fragment, d ScopeDecision, classes []string) (uint64, error) {
	var agents []string
	for _, s := range d.Scopes {
		if _, own := scopeBase(s); own {
			agents = append(agents, ScopeAgent(s))
		}
	}
	if len(agents) == 0 {
		return 0, nil
	}
	var rev uint64
	for _, f := range frags {
		text := withheldSentences(f.Value, classes)
		if text = statements(text); text == "" {
			continue
		}
		r, err := a.writeCopy(ctx, by, f.ID, text, agents, "the record's part of "+f.ID+" (sentences of class "+strings.Join(classes, ",")+" kept in the vault)")
		if err != nil {
			return rev, err
		}
		rev = max(rev, r)
	}
	return rev, nil
}
