// Command genrelated rebuilds embedding/semantic/related.txt.gz, the
// table of related words the semantic embedder ships beside its word
// vectors, from the WordNet 3.0 database (Princeton; its licence allows
// redistribution with its notice, written next to the table as
// LICENSE.wordnet). It is run by `make related` with WordNet's data files
// in -wordnet (Debian: `apt-get install wordnet-base`,
// /usr/share/wordnet); WordNet is needed only to regenerate, never to
// build.
//
// Word vectors place words by the company they keep, so they miss
// synonyms of different registers ("yield" and "return", "density" and
// "concentration"). WordNet states them. Two single words of the
// embedder's vocabulary are related when a sense of one
//
//  1. shares a synset with a sense of the other (synonyms);
//  2. is linked to a sense holding the other as derivationally related
//     form or as similar adjective ("dense" and "density");
//  3. is a synonym or derivation of a compound noun whose head (last
//     word) is the other, or is defined by a gloss whose genus (the head
//     of its first noun phrase, the dictionary's own "a kind of") is the
//     other ("ceiling": "an upper limit on what is allowed" → "limit";
//     "turnout": "attendance for a particular event" → "attendance").
//
// Hypernym and hyponym pointers relate words only between senses that
// are measures (noun.attribute, noun.quantity, noun.time: "duration" is
// a kind of "time"): elsewhere a word's hypernym names something else a
// question asks about ("a drink is a food").
//
// A vocabulary word WordNet lacks takes the relations of its base when it
// is a derivation WordNet knows ("viewership" → "viewer"). Each pair is
// written once, on the line of its alphabetically first word, lines
// sorted: the output is deterministic for a given WordNet and vocabulary.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "directory of WordNet 3.0's data.noun, data.verb, data.adj, data.adv")
	vecs := flag.String("vectors", "embedding/semantic/vectors.bin", "the embedder's vectors.bin, whose vocabulary bounds the table")
	out := flag.String("out", "embedding/semantic/related.txt.gz", "output file")
	links := flag.String("links", "+,&,@,~", "WordNet pointer kinds that relate words")
	flag.Parse()
	for _, k := range strings.Split(*links, ",") {
		kept[k] = true
	}
	vocab, err := vocabulary(*vecs)
	if err != nil {
		log.Fatal(err)
	}
	db, err := load(*wn)
	if err != nil {
		log.Fatal(err)
	}
	pairs := db.pairs(vocab)
	if err := write(*out, pairs); err != nil {
		log.Fatal(err)
	}
	n := 0
	for _, r := range pairs {
		n += len(r)
	}
	log.Printf("genrelated: %d words, %d pairs → %s", len(pairs), n, *out)
}

// vocabulary reads the word list of vectors.bin (format in package
// semantic's load.go).
func vocabulary(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 20 || string(b[:8]) != "CMEMWV1\n" {
		return nil, fmt.Errorf("%s: bad header", path)
	}
	wl := int(binary.LittleEndian.Uint32(b[16:]))
	if len(b) < 20+wl {
		return nil, fmt.Errorf("%s: truncated", path)
	}
	m := map[string]bool{}
	for _, w := range strings.Split(string(b[20:20+wl]), "\n") {
		m[w] = true
	}
	return m, nil
}

// write gzips the pairs as "word related related…" lines.
func write(path string, pairs map[string][]string) error {
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	for _, k := range keys {
		if _, err := fmt.Fprintf(bw, "%s %s\n", k, strings.Join(pairs[k], " ")); err != nil {
			return err
		}
	}
	return closeAll(bw.Flush, zw.Close, f.Close)
}

func closeAll(fs ...func() error) error {
	for _, f := range fs {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// open returns a WordNet data file.
func open(dir, name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(dir, name))
}
