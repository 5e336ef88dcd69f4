package app

import (
	"regexp"
	"strings"
)

// Spoken consent, delegation and withdrawal: the sentences of a turn that
// change who may read a scope. The rules are offline and rule-based on
// purpose — a statement either matches one of them or is left as what it
// is (remembered, not obeyed) — and the decision about each is an event
// (events.GovernanceDecided), so it can be audited and replayed.

// Kinds of spoken access change.
const (
	consentGrant  = "grant"
	consentRevoke = "revoke"
)

// revokeRE finds a withdrawal: "Dana no longer has access", "revoke
// Linda's scheduling access", "I withdraw my consent".
var revokeRE = regexp.MustCompile(`(?i)\b(no longer (has|have|gets?|may|can|should|is allowed to)|revoke[sd]?|withdraw[sn]?|rescind(s|ed)?|remove[sd]? \w+(\s\w+)?'?s? (access|permission)|cut off|take away)\b`)

// accessWordRE keeps a withdrawal to access: "Maple no longer blocks the
// launch" withdraws nothing.
var accessWordRE = regexp.MustCompile(`(?i)\b(access|permission|consent|see|read|receive|view|handle|share|sharing)\w*\b`)

// grantRE finds a consent or delegation: "Dana can see the Maple notes",
// "you can handle my scheduling", "I consent to sharing…", "give Leo
// access". A negation ("may not", "cannot") does not match.
var grantRE = regexp.MustCompile(`(?i)(\b(can|may) (now |also )?(handle|see|read|access|view|receive|manage|have access|look at)\b|\b(i|we) (hereby )?(consent|agree|authori[sz]e|approve)\b|\b(grant|give)s? \w+(\s\w+)? (full |read |summary )?access\b|\bon my behalf\b)`)

// fullRE asks for the whole scope; a spoken grant is otherwise a summary
// read (restricted details left out): the narrower reading wins.
var fullRE = regexp.MustCompile(`(?i)\b(full access|full read|everything|all (of )?(my|the) (notes|records?|details))\b`)

// endRE finds the end of a delegation: "through Friday 18:00", "until
// 6 March 2026".
var endRE = regexp.MustCompile(`(?i)\b(through|thru|until|till|up to and including|ending|expiring( on)?)\s+(.{1,48})`)

// consentStatement is one spoken access change, as parsed.
type consentStatement struct {
	kind       string
	full       bool     // grant: the whole scope, not its summary
	principals []string // registered users it names, the speaker excluded
	end        string   // the end as written; "" when none
}

// parseConsent returns the access change sentence speaks, if any. A
// sentence that both withdraws and grants ("no longer sees results, may
// receive logistics") is read as the withdrawal: the narrower reading.
func parseConsent(sentence string, users []userName, speaker string) (consentStatement, bool) {
	var c consentStatement
	switch {
	case revokeRE.MatchString(sentence) && accessWordRE.MatchString(sentence):
		c.kind = consentRevoke
	case grantRE.MatchString(sentence):
		c.kind = consentGrant
		c.full = fullRE.MatchString(sentence)
		if m := endRE.FindStringSubmatch(sentence); m != nil {
			c.end = strings.TrimSpace(m[3])
		}
	default:
		return c, false
	}
	for _, u := range users {
		if u.id != speaker && u.name.MatchString(sentence) {
			c.principals = append(c.principals, u.id)
		}
	}
	return c, true
}

// userName is a registered user and the words that name them.
type userName struct {
	id   string
	name *regexp.Regexp
}

// userNames names each registered user by the first word of their id
// that is not a role ("finance_dana_wu" → "Dana"), or by the whole id.
func userNames(ids []string) []userName {
	var out []userName
	for _, id := range ids {
		alts := []string{regexp.QuoteMeta(id)}
		for _, w := range strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return r == '_' || r == '-' }) {
			if !genericWords[w] && len(w) > 1 {
				alts = append(alts, regexp.QuoteMeta(w))
				break
			}
		}
		out = append(out, userName{id: id, name: regexp.MustCompile(`(?i)\b(` + strings.Join(alts, "|") + `)\b`)})
	}
	return out
}
