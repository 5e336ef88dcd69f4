package app

import (
	"context"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/vectors"
)

// Supersession for turns. A turn is a whole utterance, so its key (its
// text) names no fact and the same-key rule (supersede.go) never matches.
// A turn that states a new value for something — "the Summit staging
// token is now sm_…", "Maple moves from June 23 to July 1", "use 415-…
// instead of 415-…" — supersedes the earlier turns of the same scopes
// that were wholly about that thing: every sentence of theirs holding a
// value names it. A turn that also said other things is kept (hiding it
// would hide them too). As everywhere, only fragments the speaker may
// read through the scope are candidates, and each reader still sees the
// latest version they may read (current.go).

// updateRE finds a sentence stating a new value for something.
var updateRE = regexp.MustCompile(`(?i)(\b(is|are)\s+now\b|\bnow\s+(is|are)\b|\bmoves?\s+from\b|\bchanged?\s+(from\b.*\b)?to\b|\binstead of\b|\breplac(es|ed|ing)\b|\bupdated?\s+(to\b|:)|\bsupersed\w*)`)

// attributeStop are words that say a value is new, not what it is of.
var attributeStop = map[string]bool{
	"current": true, "currently": true, "active": true, "approved": true, "new": true, "newest": true, "latest": true,
	"updated": true, "update": true, "now": true, "the": true, "our": true, "its": true, "this": true, "that": true,
	"final": true, "official": true, "revised": true, "correct": true, "corrected": true, "from": true, "and": true,
	"use": true, "starting": true, "effective": true, "going": true, "forward": true, "still": true, "remains": true,
}

// turnSupersededBy is the decision recorded for a turn's supersession.
const turnSupersededBy = "rule:turn_attribute"

// updatedAttribute returns the words naming what sentence gives a new
// value for (at most the three before the update verb, less scope names
// and words of recency), or nil when it states no update with a value.
func updatedAttribute(sentence string, scopes []scopeInfo) []string {
	loc := updateRE.FindStringIndex(sentence)
	if loc == nil || !valueRE.MatchString(sentence) {
		return nil
	}
	head := sentence[:loc[0]]
	if i := strings.LastIndexAny(head, ":;"); i >= 0 {
		head = head[i+1:]
	}
	var ws []string
	for _, w := range words(head) {
		if attributeStop[w] || onlyDigits(w) || scopeWord(w, scopes) {
			continue
		}
		ws = append(ws, stem(w))
	}
	if len(ws) > 3 {
		ws = ws[len(ws)-3:]
	}
	return ws
}

// scopeWord says whether w names a scope ("summit" of project_summit).
func scopeWord(w string, scopes []scopeInfo) bool {
	for _, s := range scopes {
		if s.name != nil && s.name.MatchString(w) && len(s.name.FindString(w)) == len(w) {
			return true
		}
	}
	return false
}

// clauseRE splits a sentence into clauses ("budget is 200,000 USD and the
// token is …", "date July 24, 2026, budget 231,000 USD, cap 7%" say
// several things); dateCommaRE keeps "July 24, 2026" whole first.
var (
	clauseRE    = regexp.MustCompile(`(?i)\s+(and|but|while|whereas)\s+|;|,\s+`)
	dateCommaRE = regexp.MustCompile(`(\d{1,2}),\s+(\d{4})\b`)
)

// whollyAbout says whether every clause of text holding a value names all
// of attr (stemmed), and one does.
func whollyAbout(text string, attr []string) bool {
	return clausesHold(text, attr, valueRE.MatchString)
}

// clausesHold says whether every clause of text that counts (by counts)
// holds every word of attr (stemmed), and one does.
func clausesHold(text string, attr []string, counts func(clause string) bool) bool {
	any := false
	for _, s := range sentenceRE.FindAllString(text, -1) {
		for _, c := range clauseRE.Split(dateCommaRE.ReplaceAllString(s, "$1 $2"), -1) {
			if !counts(c) {
				continue
			}
			have := map[string]bool{}
			for _, w := range words(c) {
				have[stem(w)] = true
			}
			for _, a := range attr {
				if !have[a] {
					return false
				}
			}
			any = true
		}
	}
	return any
}

// nestedAgents says whether one of two turns' scope sets holds the other:
// a date said to a program with another scope's value beside it, and its
// update said to the program alone, are the same thing's versions.
// Which one a reader is shown stays their own (current.go): the newest
// they may read, so a reader of only the older keeps it and learns nothing.
func nestedAgents(a, b []string) bool {
	sub := func(x, y []string) bool {
		for _, v := range x {
			if !slices.Contains(y, v) {
				return false
			}
		}
		return true
	}
	return sub(a, b) || sub(b, a)
}

// supersedeTurn records, for the turn fragment f just written (at
// revision written), the earlier turns of the same or nested scopes it supersedes
// (see above); it returns the first superseded id ("" when none) and the
// revision of the last supersession recorded (0 when none). A failure is
// logged and the turn stands, as for any write.
func (a *App) supersedeTurn(ctx context.Context, by domain.Identity, f domain.Fragment, written uint64, now access.Point) (string, uint64) {
	scopes := a.scopes()
	var attrs [][]string
	inWords := map[int]string{} // attrs said in words, not with a value, and what they are now (supersede_current.go)
	for _, s := range sentenceRE.FindAllString(f.Value, -1) {
		if at := updatedAttribute(s, scopes); len(at) > 0 {
			attrs = append(attrs, at)
		} else if at, now := currentAttribute(s, scopes); len(at) > 0 {
			inWords[len(attrs)] = now
			attrs = append(attrs, at)
		}
	}
	if len(attrs) == 0 || len(f.Agents) == 0 {
		return "", 0
	}
	// The turns said before this one must be in the store before it is
	// searched for what this one replaces: on a busy machine the view's
	// projection can still be behind this turn's own write.
	if err := a.waitOn(ctx, a.viewFresh, written); err != nil {
		slog.Warn("turn supersession: earlier turns not yet indexed; the turn stands", "fragment", f.ID, "err", err)
		return "", 0
	}
	agent := f.Agents[0]
	first, rev := "", uint64(0)
	for i, attr := range attrs {
		about := whollyAbout
		if v, ok := inWords[i]; ok {
			about = func(text string, attr []string) bool {
				return whollyNames(text, attr) && !restates(text, v)
			}
		}
		vecs, err := a.embedder.Embed(ctx, []string{strings.Join(attr, " ")})
		if err != nil || len(vecs) == 0 {
			slog.Warn("turn supersession: no embedding", "fragment", f.ID, "err", err)
			return first, rev
		}
		flt := vectors.NewFilter(f.Tier, by.ID, a.view.Agents(by.ID, now), a.view.AgentIDs(), a.view.Resources(agent, now), a.view.ResourceIDs())
		hits, err := a.store.Search(ctx, vecs[0], flt, 16)
		if err != nil {
			slog.Warn("turn supersession: nearest fragments unavailable", "fragment", f.ID, "err", err)
			return first, rev
		}
		for _, h := range hits {
			info, ok := a.fragments.Get(h.ID)
			if h.ID == f.ID || !ok || info.Tier != f.Tier || !nestedAgents(info.Agents, f.Agents) ||
				!a.readable(by.ID, agent, info, now) || !about(h.Value, attr) {
				continue
			}
			r, err := a.append(ctx, by, &events.FragmentSuperseded{Old: h.ID, New: f.ID, User: by.ID, Agent: agent,
				Tier: f.Tier, Agents: f.Agents, Resources: f.Resources, Decision: turnSupersededBy}, false)
			if err != nil {
				slog.Warn("turn supersession not recorded; the turn stands", "fragment", f.ID, "err", err)
				return first, rev
			}
			rev = max(rev, r)
			if first == "" {
				first = h.ID
			}
		}
	}
	return first, rev
}
