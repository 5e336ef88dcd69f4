package main

import (
	"flag"
	"slices"
	"strings"
)

// genusMax is the most noun senses a genus may define for it to count: a
// genus as general as "act", "state" or "person" says nothing about a
// word.
var genusMax = flag.Int("genus-max", 40, "the most noun glosses a genus may head for it to relate their words")

// kinds are the hypernym and hyponym pointers; they relate only measures
// (measures: the noun files of attributes, quantities and times), where
// a kind is asked for by its kind's name ("duration" is a "time"); a kind
// of food is not asked for as "food".
var (
	kinds    = map[string]bool{"@": true, "~": true}
	measures = map[string]bool{"07": true, "23": true, "28": true} // noun.attribute, noun.quantity, noun.time
)

// derivations are suffixes of words WordNet may lack whose base it knows
// ("viewership" → "viewer").
var derivations = []string{"ship", "hood", "ness", "dom"}

// pairs returns, for every word of vocab, the later words of vocab it is
// related to (rules in the package comment), sorted.
func (d *db) pairs(vocab map[string]bool) map[string][]string {
	genusN := map[string]int{}
	for _, s := range d.synsets {
		if s.genus != "" {
			genusN[s.genus]++
		}
	}
	rel := map[string]map[string]bool{}
	add := func(a, b string) {
		if a == b || !vocab[a] || !vocab[b] {
			return
		}
		if b < a {
			a, b = b, a
		}
		if rel[a] == nil {
			rel[a] = map[string]bool{}
		}
		rel[a][b] = true
	}
	for w := range vocab {
		for _, x := range d.related(w, genusN) {
			add(w, x)
		}
		if len(d.senses[w]) > 0 {
			continue
		}
		for _, suf := range derivations {
			base := strings.TrimSuffix(w, suf)
			if base == w || len(d.senses[base]) == 0 {
				continue
			}
			add(w, base)
			for _, x := range d.related(base, genusN) {
				add(w, x)
			}
			break
		}
	}
	out := map[string][]string{}
	for a, m := range rel {
		for b := range m {
			out[a] = append(out[a], b)
		}
		slices.Sort(out[a])
	}
	return out
}

// related lists the words w is related to by WordNet: synonyms, the
// words of linked senses, the heads of compounds among them, and the
// genus of its noun senses' glosses.
func (d *db) related(w string, genusN map[string]int) []string {
	var out []string
	put := func(x, key string) {
		if i := strings.LastIndexByte(x, '_'); i >= 0 {
			if !strings.HasSuffix(key, ".n") {
				return // a phrasal verb's last word is a particle
			}
			x = x[i+1:] // a compound noun stands for its head
		}
		out = append(out, x)
	}
	for _, key := range d.senses[w] {
		s := d.synsets[key]
		at := slices.Index(s.words, w) + 1
		for _, x := range s.words {
			put(x, key)
		}
		for _, l := range s.links {
			t := d.synsets[l.to]
			if t == nil || (l.from != 0 && l.from != at) || (kinds[l.kind] && (!measures[s.lex] || !measures[t.lex])) {
				continue
			}
			if l.at == 0 {
				for _, x := range t.words {
					put(x, l.to)
				}
			} else if l.at <= len(t.words) {
				put(t.words[l.at-1], l.to)
			}
		}
		if s.genus != "" && genusN[s.genus] <= *genusMax {
			put(s.genus, key)
		}
	}
	return out
}
