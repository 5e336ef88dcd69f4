package offline

import "strings"

// nearestNewName is, of the names text holds that question does not, the
// one nearest (in words) to a word the question says, by stem: "I'm a fan
// of classical like Bach, as well as modern music like Ed Sheeran" to
// "Who is Melanie a fan of in terms of modern music?" is Ed Sheeran, not
// the first name, Bach. Ties and a question sharing no word with text: the
// first (newName).
func nearestNewName(question, text string) string {
	first := newName(question, text)
	if first == "" {
		return ""
	}
	asked := map[string]bool{}
	for _, w := range contentWords(question) {
		asked[stem(w)] = true
	}
	askedNames := nameSet(question)
	ws := words(text)
	var anchors []int
	for i, w := range ws {
		if asked[stem(w.lower)] && !askedNames[w.lower] {
			anchors = append(anchors, i)
		}
	}
	if len(anchors) == 0 {
		return first
	}
	// A name said inside a sentence beats one opening it (see newName).
	addressed := addressedNames(text)
	best, bestD, bestInitial := first, len(ws)+1, true
	for _, n := range namesOf(text) {
		if askedNames[n] || addressed[n] || isFirstPerson(strings.Fields(n)[0]) || calendarWords[strings.Fields(n)[0]] {
			continue
		}
		parts := strings.Fields(n)
		for i := range ws {
			if ws[i].lower != parts[0] || i+len(parts) > len(ws) {
				continue
			}
			d := len(ws) + 1
			for _, a := range anchors {
				d = min(d, max(a-(i+len(parts)-1), i-a))
			}
			if better := bestInitial && !ws[i].initial; better || d < bestD && ws[i].initial == bestInitial {
				var out []string
				for _, w := range ws[i : i+len(parts)] {
					out = append(out, w.text)
				}
				best, bestD, bestInitial = strings.Join(out, " "), d, ws[i].initial
			}
			break
		}
	}
	return best
}
