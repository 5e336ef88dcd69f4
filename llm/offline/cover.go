package offline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/llm"
)

// Precise coverage: a remembered answer covers a question only when it
// answers that question, not the nearest one. Without a model the rule is
//
//  1. same subject: every name of the question (namesOf: capitalised
//     words that are not sentence openers, multiword names whole) is
//     named in the fragment (its key or value), and every name of the
//     fragment's key is named in the question — "Lumen bakery" is not
//     "Lumen cooperative" when the key says "Lumen Cooperative";
//  2. same qualifiers: the periods and numbers that narrow the subject
//     (quarters "third quarter" = "Q3", halves, years, months, other
//     numbers) are the same in the question and the key, and those of
//     the question are in the fragment (a key that states rather than
//     asks — a remembered source sentence — holds its answer's numbers,
//     which do not count);
//  3. same attribute: every other content word of the question (not a
//     name, a qualifier, a stop word or an imperative such as "tell") is
//     matched in the fragment's key or value by the same word, its
//     singular or stem (stem), or a word whose word-vector similarity reaches
//     attributeMatch — unless the two are contrasts (contrasts: revenue
//     is not cost) — and every content word of the key that is not a
//     name or qualifier is matched in the question the same way; frame
//     words ("famous", "main", "kind", "people", frameWords) that
//     questions add or leave out do not count;
//  4. same kind of answer: a question asking when, who, where, how many
//     or why is covered by a key asking the same kind, or a key that does
//     not say (what, which);
//  5. a remark in brackets ("(business)") does not count;
//  6. the value says something (llm.SaysNothing is false).
//
// With a model configured, the model judges coverage from the cited
// fragments instead (llm/openai).

// attributeMatch is the least word-vector cosine for two different words
// to stand for the same attribute: "revenue" ~ "income" (0.68), "costs" ~
// "expenses" (0.78), "founded" ~ "established" (0.78), "eat" ~ "food"
// (0.54) pass; "capacity" ~ "size" (0.28), "margin" ~ "revenue" (0.36)
// do not.
const attributeMatch = 0.5

// contrasts are groups of words whose vectors are close but which ask for
// different things: a word of one group never matches one of another
// group of the same line.
var contrasts = [][][]string{
	{{"revenue", "revenues", "income", "sales", "turnover", "earnings"}, {"cost", "costs", "expense", "expenses", "spending", "expenditure", "loss", "losses"}},
	{{"win", "wins", "victories"}, {"loss", "losses", "defeats"}},
	{{"minimum", "lowest", "least"}, {"maximum", "highest", "most"}},
	{{"founded", "established", "founder"}, {"closed", "dissolved"}},
	{{"born", "birth"}, {"died", "death"}},
	{{"buy", "bought", "purchase"}, {"sell", "sold"}},
	{{"first"}, {"last"}},
}

// frameWords are words a question adds around its attribute without
// changing what it asks.
var frameWords = map[string]bool{"famous": true, "known": true, "main": true, "kind": true, "like": true, "exactly": true,
	"current": true, "currently": true, "name": true, "called": true, "value": true, "figure": true, "number": true,
	"amount": true, "tell": true, "know": true, "please": true, "give": true, "people": true, "person": true,
	"thing": true, "things": true, "type": true, "sort": true}

var (
	quarterRE = regexp.MustCompile(`(?i)\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(quarter|half)\b`)
	qShortRE  = regexp.MustCompile(`(?i)\b([qh])([1-4])\b`)
	numberRE  = regexp.MustCompile(`\b\d+(?:[.,]\d+)*\b`)
	bracketRE = regexp.MustCompile(`\([^()]*\)`)
	monthRE   = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december)\b`)
	ordinals  = map[string]string{"first": "1", "1st": "1", "second": "2", "2nd": "2", "third": "3", "3rd": "3", "fourth": "4", "4th": "4"}
)

// facets is what a text is about, split as coverage compares it.
type facets struct {
	names []string // lower-case names
	quals []string // "q3", "h1", "2024", "march", other numbers
	attrs []string // other content words, lower-case
	kind  string   // the kind of answer asked (answerKind), "" for none
	all   map[string]bool
}

// facetsOf splits text into names, qualifiers and attribute words.
func facetsOf(text string) facets {
	var f facets
	f.all = map[string]bool{}
	// A question's own phrase ("what year", "how many") is not what it is
	// about: only its kind counts.
	// A remark in brackets ("(business)") says where to look, not what is
	// asked.
	text = bracketRE.ReplaceAllString(text, " ")
	kind, body := whPhrase(text)
	f.kind = kind
	if kind != "" {
		text = body
	}
	rest := quarterRE.ReplaceAllStringFunc(text, func(m string) string {
		p := quarterRE.FindStringSubmatch(m)
		f.quals = append(f.quals, strings.ToLower(p[2][:1])+ordinals[strings.ToLower(p[1])])
		return " "
	})
	rest = qShortRE.ReplaceAllStringFunc(rest, func(m string) string {
		f.quals = append(f.quals, strings.ToLower(m))
		return " "
	})
	for _, m := range monthRE.FindAllString(rest, -1) {
		if m != "may" { // "may" the verb
			f.quals = append(f.quals, strings.ToLower(m))
		}
	}
	for _, n := range numberRE.FindAllString(rest, -1) {
		f.quals = append(f.quals, strings.ReplaceAll(n, ",", ""))
	}
	f.names = namesOf(rest)
	inName := map[string]bool{}
	for _, n := range f.names {
		f.all[n] = true
		for _, p := range strings.Fields(n) {
			inName[p] = true
			f.all[p] = true
		}
	}
	for _, q := range f.quals {
		f.all[q] = true
	}
	for _, w := range words(rest) {
		l := w.lower
		f.all[l] = true
		if inName[l] || monthRE.MatchString(l) || numberRE.MatchString(l) || len(l) < 2 ||
			embedding.StopWord(l) || notNames[l] || frameWords[l] {
			continue
		}
		if !slices.Contains(f.attrs, l) {
			f.attrs = append(f.attrs, l)
		}
	}
	return f
}

// merge returns the facets of f and g together (a key and its value).
func (f facets) merge(g facets) facets {
	out := facets{kind: f.kind, all: map[string]bool{}}
	out.names = append(append(out.names, f.names...), g.names...)
	out.quals = append(append(out.quals, f.quals...), g.quals...)
	out.attrs = append(append(out.attrs, f.attrs...), g.attrs...)
	for _, m := range []map[string]bool{f.all, g.all} {
		for w := range m {
			out.all[w] = true
		}
	}
	return out
}

// has reports whether name n (lower-case, maybe several words) is named
// in f: as a name, or its words as words (a key written in lower case).
func (f facets) has(n string) bool {
	if slices.Contains(f.names, n) {
		return true
	}
	for _, p := range strings.Fields(n) {
		if !f.all[p] {
			return false
		}
	}
	return true
}

// covers reports whether the fragment (key, value) answers question by
// the rule above.
func (o *Provider) covers(question, key, value string) bool {
	if llm.SaysNothing(value) {
		return false
	}
	q, k := facetsOf(question), facetsOf(key)
	kv := k.merge(facetsOf(value))
	for _, n := range q.names {
		if !kv.has(n) {
			return false
		}
	}
	for _, n := range k.names {
		if !q.has(n) {
			return false
		}
	}
	for _, x := range q.quals {
		if !kv.all[x] {
			return false
		}
	}
	for _, x := range k.quals {
		// A key that states a fact rather than asks (a remembered source
		// sentence) holds its answer's numbers: only its periods count.
		statement := k.kind == "" && numberRE.MatchString(x)
		if !statement && !slices.Contains(q.quals, x) {
			return false
		}
	}
	if q.kind != "" && k.kind != "" && q.kind != k.kind {
		return false
	}
	if len(q.attrs) == 0 && len(q.names) == 0 {
		return false
	}
	for _, w := range q.attrs {
		if !o.matchWord(w, kv.attrs) {
			return false
		}
	}
	for _, w := range k.attrs {
		if !q.all[w] && !o.matchWord(w, q.attrs) {
			return false
		}
	}
	return true
}

// matchWord reports whether w is among ws, as itself, its singular or a
// near synonym, contrasts excepted. A near synonym is a word the
// embedder's lexicon relates to w (WordNet's synonyms, kinds and
// derivations: "yield" ~ "return"), or one whose word-vector similarity
// to w, or to w's base when w is a derivation ("viewership" → "viewer"),
// reaches attributeMatch.
func (o *Provider) matchWord(w string, ws []string) bool {
	for _, x := range ws {
		if sameWord(w, x) || stem(w) == stem(x) {
			return true
		}
	}
	if lex, ok := o.cfg.Embedder.(interface{ Related(a, b string) bool }); ok {
		for _, x := range ws {
			if !contrasting(w, x) && lex.Related(w, x) {
				return true
			}
		}
	}
	vec, ok := o.cfg.Embedder.(interface{ Vector(string) []float32 })
	if !ok {
		return false
	}
	forms := [][]float32{vec.Vector(w)}
	if b := derivationBase(w); b != "" {
		forms = append(forms, vec.Vector(b))
	}
	for _, x := range ws {
		if contrasting(w, x) {
			continue
		}
		xv := vec.Vector(x)
		for _, v := range forms {
			if embedding.Cosine(v, xv) >= attributeMatch {
				return true
			}
		}
	}
	return false
}

// derivationBase returns the word w is derived from by a suffix that
// names a group or state of it ("viewership" → "viewer", "childhood" →
// "child"), "" for other words.
func derivationBase(w string) string {
	for _, suf := range []string{"ship", "hood", "dom"} {
		if b, ok := strings.CutSuffix(w, suf); ok && len(b) >= 4 {
			return b
		}
	}
	return ""
}

// sameWord: equal, or equal but for a plural or possessive ending.
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	for _, s := range []string{"es", "s"} {
		if strings.TrimSuffix(a, s) == b || strings.TrimSuffix(b, s) == a {
			return true
		}
	}
	return false
}

// stem cuts the commonest English suffixes, so that "founder",
// "founded" and "founding" meet.
func stem(w string) string {
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ers", "er", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// contrasting reports whether a and b sit in different groups of one
// contrasts line.
func contrasting(a, b string) bool {
	for _, line := range contrasts {
		ga, gb := -1, -1
		for i, g := range line {
			if slices.Contains(g, a) {
				ga = i
			}
			if slices.Contains(g, b) {
				gb = i
			}
		}
		if ga >= 0 && gb >= 0 && ga != gb {
			return true
		}
	}
	return false
}
