package semantic

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// relatedFile is written by ./genrelated from WordNet 3.0 (licence in
// LICENSE.wordnet): gzipped lines "word related related…", each pair
// once, on the line of its alphabetically first word.
//
//go:embed related.txt.gz
var relatedFile []byte

var (
	relatedOnce sync.Once
	relatedSet  map[[2]string]bool
	relatedErr  error
)

// relations decodes relatedFile once.
func relations() (map[[2]string]bool, error) {
	relatedOnce.Do(func() { relatedSet, relatedErr = decodeRelated(relatedFile) })
	return relatedSet, relatedErr
}

func decodeRelated(b []byte) (map[[2]string]bool, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("semantic: related.txt.gz: %w", err)
	}
	m := map[[2]string]bool{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		for _, w := range f[1:] {
			m[[2]string{f[0], w}] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("semantic: related.txt.gz: %w", err)
	}
	return m, nil
}

// Related reports whether two different words are related in meaning by
// WordNet: synonyms, one a direct kind of the other, derivations of one
// another, or one the genus of the other's definition ("yield" and
// "return", "turnout" and "attendance", "ceiling" and "limit"). Words are
// compared lower-case and also by their singular. It complements Vector,
// whose corpus-learned neighbours miss synonyms of different registers,
// and like it knows nothing of what a word is not: callers that must
// tell opposites apart keep their own contrasts.
func (e *Embedder) Related(a, b string) bool {
	m, err := relations()
	if err != nil {
		return false // a damaged build; New has reported the vectors' state
	}
	for _, x := range forms(strings.ToLower(a)) {
		for _, y := range forms(strings.ToLower(b)) {
			if x == y || m[[2]string{min(x, y), max(x, y)}] {
				return true
			}
		}
	}
	return false
}

// forms are w and its singulars ("dishes" → "dishe", "dish").
func forms(w string) []string {
	out := []string{w}
	for _, s := range []string{"s", "es"} {
		if len(w) > len(s)+2 && strings.HasSuffix(w, s) {
			out = append(out, strings.TrimSuffix(w, s))
		}
	}
	return out
}
