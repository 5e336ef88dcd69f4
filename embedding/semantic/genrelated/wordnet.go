package main

import (
	"bufio"
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// synset is one WordNet sense: its words, its links and, for nouns, the
// genus of its gloss.
type synset struct {
	lex   string // lexicographer file number ("07" noun.attribute)
	words []string
	links []link
	genus string
}

// link is a pointer of a kept kind; from and to are word numbers (1-based)
// of a lexical pointer, 0 for a pointer between whole synsets.
type link struct {
	kind     string // pointer symbol ("@" hypernym, "+" derivation…)
	to       string // "offset.pos"
	from, at int
}

// kept are the pointer kinds that relate words (-links).
var kept = map[string]bool{}

// db is the parsed database.
type db struct {
	synsets map[string]*synset
	senses  map[string][]string // word → its synsets
}

var (
	markerRE = regexp.MustCompile(`\([a-z]+\)$`)
	wordRE   = regexp.MustCompile(`[a-z][a-z'-]*`)
)

// load parses data.{noun,verb,adj,adv} of dir.
func load(dir string) (*db, error) {
	d := &db{synsets: map[string]*synset{}, senses: map[string][]string{}}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		f, err := open(dir, "data."+pos)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "  ") {
				continue // the licence header
			}
			d.parse(line, pos[:1])
		}
		err = errors.Join(sc.Err(), f.Close())
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// parse adds one data line ("offset lexfile type count word lexid …
// pcount sym offset pos srcdst … | gloss").
func (d *db) parse(line, pos string) {
	head, gloss, _ := strings.Cut(line, " | ")
	f := strings.Fields(head)
	if len(f) < 4 {
		return
	}
	n, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil || len(f) < 5+2*int(n) {
		return
	}
	s := &synset{lex: f[1]}
	for i := 0; i < int(n); i++ {
		s.words = append(s.words, strings.ToLower(markerRE.ReplaceAllString(f[4+2*i], "")))
	}
	i := 4 + 2*int(n)
	pc, err := strconv.Atoi(f[i])
	if err != nil {
		return
	}
	i++
	for j := 0; j < pc && i+3 < len(f); j, i = j+1, i+4 {
		if !kept[f[i]] {
			continue
		}
		src, _ := strconv.ParseInt(f[i+3][:2], 16, 32)
		dst, _ := strconv.ParseInt(f[i+3][2:], 16, 32)
		s.links = append(s.links, link{kind: f[i], to: f[i+1] + "." + posOf(f[i+2]), from: int(src), at: int(dst)})
	}
	if pos == "n" {
		s.genus = genus(gloss)
	}
	key := f[0] + "." + pos
	d.synsets[key] = s
	for _, w := range s.words {
		d.senses[w] = append(d.senses[w], key)
	}
}

// posOf maps a pointer's part of speech to a data file's ("s", a
// satellite adjective, is in data.adj).
func posOf(p string) string {
	if p == "s" {
		return "a"
	}
	return p
}

// determiners open a gloss without being its genus; boundaries end its
// first noun phrase.
var (
	determiners = map[string]bool{"a": true, "an": true, "the": true, "any": true, "one": true, "some": true, "its": true}
	boundaries  = map[string]bool{"of": true, "on": true, "in": true, "for": true, "that": true, "which": true, "who": true,
		"to": true, "with": true, "by": true, "at": true, "from": true, "as": true, "or": true, "and": true, "used": true,
		"where": true, "when": true, "whose": true, "having": true, "between": true, "into": true, "than": true, "under": true}
)

// genus returns the head of the first noun phrase of a gloss's
// definition ("an upper limit on what is allowed" → "limit"), "" when
// there is none.
func genus(gloss string) string {
	def, _, _ := strings.Cut(gloss, ";")
	def, _, _ = strings.Cut(def, `"`)
	def = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(strings.ToLower(def), " ")
	if i := strings.IndexAny(def, ",:"); i >= 0 {
		def = def[:i]
	}
	last := ""
	for k, w := range wordRE.FindAllString(def, -1) {
		if k == 0 && determiners[w] {
			continue
		}
		if boundaries[w] {
			break
		}
		last = w
	}
	return last
}
