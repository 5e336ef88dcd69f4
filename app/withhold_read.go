package app

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// Need-to-know inside a scope: a full member of a project whose role has
// no business with some sensitivity classes (sales reads the project but
// not its credentials or incident details) reads the scope without those
// classes. The mapping says it per relationship type and role
// (RelationshipRule.WithholdFor); the import then grants that principal
// the scope's withheld agent (WithheldAgent) instead of the scope's own.
// As with summaries and class reads the read is written at the time of
// the turn: beside each turn fragment, its sentences carrying none of the
// withheld classes, through the withheld agent and derived from the
// original. M(u,a,t) stays the one decision — the original is never
// admitted to such a reader — every copy is a FragmentWritten event whose
// notes say what was withheld, and erasing the original destroys the copy.

// ReadWithout is a plan's read level for a full read less some classes.
const ReadWithout = "without"

// withheldInfix separates a scope from the classes its withheld agent
// leaves out.
const withheldInfix = "-less-"

// WithheldAgent is the agent through which scope is read without classes.
func WithheldAgent(scope string, classes []string) string {
	cs := append([]string{}, classes...)
	sort.Strings(cs)
	return scopePrefix + scope + withheldInfix + strings.Join(cs, "-")
}

// withheldBase splits an agent id (less scopePrefix) into its scope and
// withheld classes when it is a withheld agent.
func withheldBase(id string) (string, []string, bool) {
	i := strings.LastIndex(id, withheldInfix)
	if i <= 0 {
		return "", nil, false
	}
	classes := strings.Split(id[i+len(withheldInfix):], "-")
	for _, c := range classes {
		if sensitivityLexicon[c] == nil {
			return "", nil, false
		}
	}
	return id[:i], classes, true
}

// validateWithhold reports the classes of r's WithholdFor that are not
// sensitivity classes.
func validateWithhold(typ string, r RelationshipRule) []error {
	var errs []error
	for role, cs := range r.WithholdFor {
		if len(cs) == 0 {
			errs = append(errs, fmt.Errorf("schema.types.%s.withhold_for.%s: no class named", typ, role))
		}
		for _, c := range cs {
			if sensitivityLexicon[c] == nil {
				errs = append(errs, fmt.Errorf("schema.types.%s.withhold_for.%s: %q is not a sensitivity class", typ, role, c))
			}
		}
	}
	return errs
}

// withhold turns the full read of a principal whose role the rule
// withholds classes from into a read without them.
func withhold(p plan, rule RelationshipRule, roles map[string]string) plan {
	cs := rule.WithholdFor[roles[p.user]]
	if p.read != ReadFull || len(cs) == 0 {
		return p
	}
	p.read, p.classes = ReadWithout, events.SortedSet(cs)
	return p
}

// withheldSentences are the sentences of text carrying none of classes.
func withheldSentences(text string, classes []string) string {
	var kept []string
	for _, s := range summarySentenceRE.FindAllString(text, -1) {
		if s = strings.TrimSpace(s); s != "" && !anyClass(Sensitivity(s), classes) {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

func anyClass(have, of []string) bool {
	for _, c := range have {
		if contains(of, c) {
			return true
		}
	}
	return false
}

// writeWithheldReads writes, for each class set some principal reads every
// scope of d without, each fragment's sentences outside that set; it
// returns the revision of the last write.
func (a *App) writeWithheldReads(ctx context.Context, by domain.Identity, frags []domain.Fragment, d ScopeDecision) (uint64, error) {
	if len(d.Scopes) == 0 {
		return 0, nil
	}
	sets := map[string][]string{}
	for _, ag := range a.view.AgentIDs() {
		id, ok := strings.CutPrefix(ag, scopePrefix)
		if !ok {
			continue
		}
		if base, cs, ok := withheldBase(id); ok && base == d.Scopes[0] {
			sets[strings.Join(cs, "-")] = cs
		}
	}
	keys := make([]string, 0, len(sets))
	for k := range sets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rev uint64
	for _, k := range keys {
		cs := sets[k]
		agents, read := a.copyAgents(d.Scopes, func(s string) string { return WithheldAgent(s, cs) })
		if !read {
			continue // a turn of several scopes is read without cs only by who reads each so
		}
		for _, f := range frags {
			text := withheldSentences(f.Value, cs)
			if text == "" {
				continue
			}
			r, err := a.writeCopy(ctx, by, f.ID, text, agents, "read of "+f.ID+" for "+strings.Join(agents, ",")+" (sentences of class "+strings.Join(cs, ",")+" withheld)")
			if err != nil {
				return rev, err
			}
			rev = max(rev, r)
		}
	}
	return rev, nil
}
