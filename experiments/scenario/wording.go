package scenario

import (
	"strings"
)

// Scenario 1 asks in the users' own words: several attributes of each
// subject, each user wording a question their own way — another frame
// ("Tell me …", "What's X's …", "Please give …") and, in some wordings,
// a synonym for a word of the attribute ("market value" for "market
// capitalization"). Memory must serve a repeated question whatever its
// wording and never serve the answer about another attribute of the same
// subject.

// perSubject is how many attributes of one subject Scenario 1's facts
// hold: a subject's facts differ only in their attribute.
const perSubject = 3

// synonyms are the everyday words for attribute words that a user may
// use instead (one replacement per question, the first word found).
var synonyms = map[string]string{
	"density": "concentration", "capacity": "size", "version": "release", "latency": "delay", "count": "number",
	"speed": "rate", "bandwidth": "throughput", "uptime": "availability", "resolution": "sharpness",
	"gross": "takings", "runtime": "length", "audience": "viewership", "attendance": "turnout", "length": "duration",
	"seating": "seats", "budget": "spending", "nominations": "nods", "wins": "victories", "fee": "price",
	"time": "duration", "ranking": "position", "tally": "total", "acreage": "area", "appearances": "entries",
	"aperture": "diameter", "duration": "length", "magnification": "zoom", "temperature": "heat",
	"revenue": "income", "headcount": "workforce", "valuation": "value", "yield": "return", "footprint": "floor area",
	"churn": "attrition", "capitalization": "value", "exposure": "risk", "efficacy": "effectiveness",
	"enrollment": "recruitment", "ceiling": "limit", "backlog": "queue", "ratio": "proportion", "stock": "inventory",
	"hour": "time",
}

// synonym returns attr with its first word that has a synonym replaced
// (attr itself when none has).
func synonym(attr string) string {
	ws := strings.Fields(attr)
	for i, w := range ws {
		if s, ok := synonyms[w]; ok {
			ws[i] = s
			return strings.Join(ws, " ")
		}
	}
	return attr
}

// Wording is how one user asks for f: wording v (any int) picks the frame
// and whether the attribute is said with a synonym. Wording 0 is
// Question.
func (f fact) Wording(v int) string {
	attr := f.Attr
	if v%2 == 1 {
		attr = synonym(f.Attr)
	}
	switch v % 5 {
	case 1:
		return "Tell me the " + attr + " of " + f.Entity + " (" + f.Domain + ")."
	case 2:
		return "What's " + f.Entity + "'s " + attr + "? (" + f.Domain + ")"
	case 3:
		return "Please give the " + attr + " for " + f.Entity + " (" + f.Domain + ")."
	case 4:
		return "What " + attr + " does " + f.Entity + " have? (" + f.Domain + ")"
	}
	return "What is the " + attr + " of " + f.Entity + " (" + f.Domain + ")?"
}

// subjectFacts makes count facts of d, perSubject attributes per
// subject, cycling through the domain's attributes.
func (n *namer) subjectFacts(d domain, count int) []fact {
	out := make([]fact, count)
	entity := ""
	for i := range out {
		if i%perSubject == 0 {
			entity = n.name()
		}
		out[i] = fact{Domain: d.Name, Entity: entity, Attr: d.Attrs[i%len(d.Attrs)], Value: n.value()}
	}
	return out
}
