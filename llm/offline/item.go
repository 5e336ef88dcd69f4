package offline

import "strings"

// A question asking for several things ("Which cities has John been
// to?", "What books has Tim read?") is answered by a list, one item from
// each turn that tells one; a clause of a dozen words per item buries the
// items. Each item is therefore what names the thing — a title in
// quotes, the names the question does not hold — or else its clause cut
// to listItemWords words.

// listItemWords bounds an item of a list answer that names nothing.
const listItemWords = 5

// listItem is the item sentence (a speaker's turn or a plain sentence)
// adds to a list question: a title in quotes the question does not hold,
// else the names it gives that the question does not hold (not the
// speaker's, nor a greeting's), else the answering clause, at most
// listItemWords words.
func (o *Provider) listItem(al aligner, w *weigher, question, speakers string, c rankedSentence) string {
	sentence := c.text
	_, text := speakerLabel(sentence)
	if t, ok := quotedTitle(question, text); ok {
		return t
	}
	if ns := newNames(question+" "+speakers, text); len(ns) > 0 {
		return strings.Join(ns, ", ")
	}
	a := span(question, o.clause(al, w, question, sentence), c.at)
	if f := strings.Fields(a); len(f) > listItemWords {
		a = strings.Join(f[:itemCut(f)], " ")
	}
	return strings.TrimRight(a, ",;:.!? ")
}

// newNames are the names of text, as written, that question does not
// hold, in order, each once. A single capitalised word opening a
// sentence ("Sometimes", "Books") is too often no name to be an item, and
// neither is a day or a month.
func newNames(question, text string) []string {
	asked := nameSet(question)
	ws := words(text)
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(ws); i++ {
		if !nameWord(ws, i) {
			continue
		}
		j := i + 1
		for j < len(ws) && !ws[j-1].possessive && !ws[j].initial && capitalised(ws[j].text) {
			j++
		}
		parts := ws[i:j]
		i = j - 1
		first := parts[0].lower
		if asked[first] || seen[first] || isFirstPerson(first) || calendarWords[first] || parts[0].initial && len(parts) == 1 {
			continue
		}
		seen[first] = true
		var name []string
		for _, p := range parts {
			name = append(name, p.text)
		}
		out = append(out, strings.Join(name, " "))
	}
	return out
}

// speakersOf is the speakers' names of cands, one space between them: a
// name a turn addresses its listener by ("Thanks, Tim!") is not an item.
func speakersOf(cands []rankedSentence) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		if s, _ := speakerLabel(c.text); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// itemCut is how many of an unnamed item's words f it keeps:
// listItemWords, or through its first number when that comes later — a
// plural question ("What playoff entries does X have?") is often asked
// of one value, and the cut must not drop the value it answers with.
func itemCut(f []string) int {
	for i, w := range f {
		if strings.ContainsAny(w, "0123456789") {
			return max(listItemWords, i+1)
		}
	}
	return listItemWords
}
