package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// A deletion request spoken in conversation ("please delete the old
// staging token mp_stg_4R2N… from memory") names what it erases: quoted
// text, identifier-like values (tokens, codes, phone numbers, amounts) and
// long proper names. With the speaker's authority over the scope, every
// fragment of the scope holding one of them is erased — the same
// crypto-shredding erasure as DELETE /v1/fragments/{id}, derived fragments
// and answers with it — and the values are kept only as hashes, so that a
// later turn repeating them into the scope is written with them redacted.

var (
	// eraseRE finds a request to erase: an imperative or a request form,
	// not a report of something removed.
	eraseRE  = regexp.MustCompile(`(?i)(\b(please|kindly)\s+(delete|remove|erase|forget|purge|scrub|wipe)\b|^\s*(delete|remove|erase|forget|purge|scrub|wipe)\b|\bdeletion request\s*:|\b(delete|remove|erase|forget|purge|scrub|wipe|deleted|removed|erased|purged|scrubbed|wiped)\b[^.]*\bfrom\s+(the\s+)?(\w+[\s-]+){0,3}memory\b|\bshould be treated as deleted\b|\bshould (not|never) be (recalled|restated|revived|retained|repeated|reused)\b|\bdo not (revive|retain|restate|recall|reuse)\b|\bstop (recalling|restating|reviving|retaining)\b|\bshould stay (deleted|retired|erased)\b)`)
	quotedRE = regexp.MustCompile(`'([^']{3,120})'|"([^"]{3,120})"|‘([^’]{3,120})’|“([^”]{3,120})”`)
	// valueRE: an identifier-like value — has a digit and is not a plain
	// word (tokens, codes, phone numbers, amounts with their unit).
	valueRE  = regexp.MustCompile(`\b[A-Za-z0-9][A-Za-z0-9_\-.,/]*\d[A-Za-z0-9_\-.,/]*(\s?(USD|EUR|GBP|%|mg|mcg))?`)
	properRE = regexp.MustCompile(`\b[A-Z][a-z]+(\s+[A-Z][a-z]+){2,}\b`)
)

// erasureTargets returns the values a sentence asks to erase, leaving out
// the names of scopes (erasing "Project Maple" would erase the project).
func erasureTargets(sentence string, scopes []scopeInfo) []string {
	var out []string
	add := func(s string) {
		s = strings.Trim(strings.TrimSpace(s), ".,;:")
		if len(s) < 3 {
			return
		}
		for _, sc := range scopes {
			if sc.name != nil && sc.name.FindString(s) == strings.TrimSpace(s) {
				return
			}
		}
		for _, o := range out {
			if strings.EqualFold(o, s) {
				return
			}
		}
		out = append(out, s)
	}
	for _, m := range quotedRE.FindAllStringSubmatch(sentence, -1) {
		q := m[1] + m[2] + m[3] + m[4]
		for _, part := range regexp.MustCompile(`\s*[=:→]\s*`).Split(q, -1) {
			named := false
			for _, sc := range scopes {
				if sc.name != nil && sc.name.MatchString(part) {
					named = true
				}
			}
			if !named {
				add(part)
			}
		}
	}
	for _, v := range valueRE.FindAllString(sentence, -1) {
		if len(strings.Trim(v, ".,")) >= 4 { // "t12" is no value; years and small numbers are kept out by length below
			if onlyDigits(strings.Trim(v, ".,")) && len(v) <= 4 {
				continue
			}
			add(v)
		}
	}
	for _, v := range codeNumbers(sentence) { // a keypad code or a PIN (governance_erase_codes.go)
		add(v)
	}
	// Names ("the Harbor House number"), never one holding a scope's own
	// name ("Project Harbor", "Harbor Team"): that would erase the scope.
	addName := func(p string) {
		if p = properName(p); p == "" {
			return
		}
		for _, sc := range scopes {
			if sc.name != nil && sc.name.MatchString(p) {
				return
			}
		}
		add(p)
	}
	for _, re := range []*regexp.Regexp{properRE, nameRE} {
		for _, loc := range re.FindAllStringIndex(sentence, -1) {
			addName(numberedName(sentence, loc))
		}
	}
	// A one-word name the request introduces as a person ("delete ask for
	// Nia", "remove the alias Iris"), no day, month or scope name: a bare
	// capitalised word may be a vendor or a place the scope still needs.
	for _, m := range oneNameRE.FindAllStringSubmatch(sentence, -1) {
		w := m[1]
		if calendarWords[strings.ToLower(w)] || leadWords[strings.ToLower(w)] || len(w) < 3 || inName(out, w) {
			continue
		}
		named := false
		for _, sc := range scopes {
			if sc.name != nil && sc.name.MatchString(w) {
				named = true
			}
		}
		if !named {
			add(w)
		}
	}
	return out
}

func onlyDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// sentences splits text at sentence ends.
func sentences(text string) []string {
	return regexp.MustCompile(`[.!?]\s+`).Split(text, -1)
}

func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// erasedValue is value as the log keeps it: the hash of its normalised
// text and its length in words, never the text.
func erasedValue(value string) events.ErasedValue {
	n := normalize(value)
	h := sha256.Sum256([]byte(n))
	return events.ErasedValue{SHA256: hex.EncodeToString(h[:]), Words: len(strings.Fields(n))}
}

// recordErased appends, for scope, the hashes of values (a ValuesErased),
// so that later turns into the scope are redacted, across restarts.
func (a *App) recordErased(ctx context.Context, by domain.Identity, scope string, values []string) (uint64, error) {
	var vs []events.ErasedValue
	seen := map[string]bool{}
	for _, v := range values {
		if ev := erasedValue(v); ev.Words > 0 && !seen[ev.SHA256] {
			seen[ev.SHA256] = true
			vs = append(vs, ev)
		}
	}
	if len(vs) == 0 {
		return 0, nil
	}
	return a.append(ctx, by, &events.ValuesErased{Scope: scope, User: by.ID, Values: vs}, false)
}

// redactErased replaces in text every run of words whose hash is a value
// erased from one of scopes with "[erased]". The registry must have seen
// every erasure before (the caller fences on events.ErasedSubjectPrefix).
func (a *App) redactErased(scopes []string, text string) (string, int) {
	lens := map[int]bool{}
	var sets []map[string]int
	for _, s := range scopes {
		if set := a.fragments.ErasedValues(s); len(set) > 0 {
			sets = append(sets, set)
			for _, n := range set {
				lens[n] = true
			}
		}
	}
	if len(sets) == 0 {
		return text, 0
	}
	ws := strings.Fields(text)
	hits := 0
	for i := 0; i < len(ws); i++ {
		for n := range lens {
			if i+n > len(ws) {
				continue
			}
			cand := strings.Trim(strings.Join(ws[i:i+n], " "), ".,;:'\"()")
			h := erasedValue(cand).SHA256
			for _, set := range sets {
				if _, ok := set[h]; ok {
					ws[i] = "[erased]"
					for j := i + 1; j < i+n; j++ {
						ws[j] = ""
					}
					hits++
				}
			}
		}
	}
	return strings.Join(strings.Fields(strings.Join(ws, " ")), " "), hits
}

// calendarWords and leadWords are capitalised words that name no thing:
// days and months, and words that start a sentence ("After Tuesday is
// done, please delete…" names nothing to erase).
var calendarWords, leadWords = map[string]bool{}, map[string]bool{}

func init() {
	for _, w := range strings.Fields("monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december today tomorrow tonight morning evening weekend") {
		calendarWords[w] = true
	}
	for _, w := range strings.Fields("after before once when then please also and but so if until while since from for the this that these those our my your their kindly now delete remove erase forget purge scrub wipe") {
		leadWords[w] = true
	}
}

// properName is name less its leading sentence words ("After Tuesday" →
// "Tuesday"); "" when what is left is one word or only days and months.
func properName(name string) string {
	ws := strings.Fields(name)
	for len(ws) > 0 && leadWords[strings.ToLower(ws[0])] {
		ws = ws[1:]
	}
	if len(ws) < 2 {
		return ""
	}
	for _, w := range ws {
		if !calendarWords[strings.ToLower(w)] {
			return strings.Join(ws, " ")
		}
	}
	return ""
}

// oneNameRE is a capitalised word after a word that introduces a person
// ("ask for Nia", "the alias Iris", "under June", "named Mara").
var oneNameRE = regexp.MustCompile(`\b(?:for|alias|under|named|called|contact|nickname)\s+([A-Z][a-z]+)\b`)

// inName says whether w is a word of one of names already found.
func inName(names []string, w string) bool {
	for _, n := range names {
		for _, x := range strings.Fields(n) {
			if x == w {
				return true
			}
		}
	}
	return false
}
