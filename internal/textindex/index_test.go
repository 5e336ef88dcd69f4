package textindex_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/cmem/cmem/internal/textindex"
)

// TestScores checks the index against the BM25 formula written out, with
// k1 = 1.2, b = 0.75 and idf = ln(1 + (N − df + 0.5) / (df + 0.5)).
func TestScores(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	ix.Add("a", "apple apple banana")
	ix.Add("b", "banana cherry cherry cherry date")
	ix.Add("c", "apple")
	const n, avgdl = 3.0, 9.0 / 3
	idf := func(df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }
	term := func(tf, dl, df float64) float64 {
		return idf(df) * tf * (1.2 + 1) / (tf + 1.2*(1-0.75+0.75*dl/avgdl))
	}
	want := map[string]float64{
		"a": term(2, 3, 2) + term(1, 3, 2), // apple, banana
		"b": term(1, 5, 2),                 // banana
		"c": term(1, 1, 2),                 // apple
	}
	hits := ix.Search("Apple banana apple", 10, nil) // a repeated query term counts once
	if len(hits) != 3 {
		t.Fatalf("hits = %v, want 3", hits)
	}
	for _, h := range hits {
		if math.Abs(h.Score-want[h.ID]) > 1e-12 {
			t.Errorf("score of %s = %v, want %v", h.ID, h.Score, want[h.ID])
		}
	}
	if !slices.IsSortedFunc(hits, cmpHits) {
		t.Errorf("hits not best first: %v", hits)
	}
	if ix.Len() != 3 {
		t.Errorf("Len = %d, want 3", ix.Len())
	}
}

func TestTopKAndTies(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	for i := 19; i >= 0; i-- {
		ix.Add(string(rune('a'+i)), "same words here")
	}
	var ids []string
	for _, h := range ix.Search("words", 4, nil) {
		ids = append(ids, h.ID)
	}
	if !slices.Equal(ids, []string{"a", "b", "c", "d"}) {
		t.Fatalf("ties = %v, want a..d by ID", ids)
	}
	if got := ix.Search("words", 0, nil); got != nil {
		t.Errorf("k=0 gave %v", got)
	}
	if got := ix.Search("absent", 3, nil); len(got) != 0 {
		t.Errorf("absent term gave %v", got)
	}
}

// TestAllowIsExact: a filtered search is the unfiltered ranking with the
// rejected documents taken out, however many of the best ones are rejected.
func TestAllowIsExact(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	for i := range 200 {
		ix.Add(fmt.Sprintf("d%03d", i), fmt.Sprintf("common word%d word%d", i%7, i%13))
	}
	all := ix.Search("common word3 word5", 1000, nil)
	allow := func(id string) bool { return id[len(id)-1]%3 == 0 }
	var want []textindex.Hit
	for _, h := range all {
		if allow(h.ID) && len(want) < 10 {
			want = append(want, h)
		}
	}
	got := ix.Search("common word3 word5", 10, allow)
	if !slices.Equal(got, want) {
		t.Fatalf("filtered = %v\nwant %v", got, want)
	}
	if got := ix.Search("common", 5, func(string) bool { return false }); len(got) != 0 {
		t.Fatalf("allow rejecting all gave %v", got)
	}
}

// TestChurnMatchesRebuild: after random adds, replacements and removals
// (enough to compact), every search equals the same search on an index
// built fresh from the surviving documents.
func TestChurnMatchesRebuild(t *testing.T) {
	for _, stem := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		cfg := textindex.Config{Stem: stem}
		ix := textindex.New(cfg)
		docs := map[string]string{}
		words := []string{"red", "reds", "green", "blue", "hiking", "hike", "cat", "cats", "dog", "bird", "tree", "sky"}
		text := func() string {
			n := 1 + rng.IntN(8)
			var s string
			for range n {
				s += words[rng.IntN(len(words))] + " "
			}
			return s
		}
		for step := range 6000 {
			id := fmt.Sprintf("d%d", rng.IntN(800))
			if rng.IntN(3) == 0 {
				if got, want := ix.Remove(id), docs[id] != ""; got != want {
					t.Fatalf("Remove(%s) = %v, want %v", id, got, want)
				}
				delete(docs, id)
			} else {
				docs[id] = text()
				ix.Add(id, docs[id])
			}
			if step%500 != 0 {
				continue
			}
			fresh := textindex.New(cfg)
			for id, d := range docs {
				fresh.Add(id, d)
			}
			if ix.Len() != len(docs) {
				t.Fatalf("Len = %d, want %d", ix.Len(), len(docs))
			}
			for range 5 {
				q := text()
				got, want := ix.Search(q, 15, nil), fresh.Search(q, 15, nil)
				if !sameHits(got, want) {
					t.Fatalf("stem=%v step %d query %q:\n got %v\nwant %v", stem, step, q, got, want)
				}
			}
		}
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"dogs": "dog", "painting": "paint", "painted": "paint", "paints": "paint",
		"studies": "study", "hiking": "hik", "hike": "hik", "hiked": "hik",
		"stopping": "stop", "classes": "class", "boxes": "box", "glass": "glass",
		"bus": "bus", "is": "is", "the": "the", "café": "café", "falling": "fall",
	} {
		if got := textindex.Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
	ix := textindex.New(textindex.Config{Stem: true})
	ix.Add("x", "She went hiking with her dogs")
	if hits := ix.Search("does she like to hike with a dog", 1, nil); len(hits) != 1 || hits[0].ID != "x" {
		t.Errorf("stemmed search = %v", hits)
	}
}

func TestTokenize(t *testing.T) {
	got := textindex.Tokenize("Crème-brûlée, 2x ÉTÉ_42 l'été!")
	want := []string{"crème", "brûlée", "2x", "été", "42", "l", "été"}
	if !slices.Equal(got, want) {
		t.Fatalf("Tokenize = %q, want %q", got, want)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (textindex.Config{B: 2}).WithDefaults().Validate(); err == nil {
		t.Error("B = 2 passed")
	}
	if err := (textindex.Config{K1: -1}).WithDefaults().Validate(); err == nil {
		t.Error("K1 = -1 passed")
	}
	if c := (textindex.Config{NoLengthNorm: true}).WithDefaults(); c.B != 0 {
		t.Errorf("NoLengthNorm: B = %v", c.B)
	}
}

func cmpHits(x, y textindex.Hit) int {
	if textindex.Better(x, y) {
		return -1
	}
	return 1
}

// sameHits compares rankings allowing for float rounding in the sums.
func sameHits(a, b []textindex.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || math.Abs(a[i].Score-b[i].Score) > 1e-9 {
			return false
		}
	}
	return true
}

// TestSearchInScoresAsIfOnlyTheAllowedExisted: SearchIn's scores are those
// of an index holding the allowed documents only, so no score depends on a
// document the caller may not see; Search's count every document.
func TestSearchInScoresAsIfOnlyTheAllowedExisted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"salary", "ceo", "lyon", "bread", "the", "a", "market", "secret"}
	ix := textindex.New(textindex.Config{Stem: true})
	only := textindex.New(textindex.Config{Stem: true})
	allow := func(id string) bool { return id[len(id)-1]%2 == 0 }
	n, total := 0, 0
	for i := range 300 {
		var text string
		for range 1 + rng.IntN(12) {
			text += words[rng.IntN(len(words))] + " "
		}
		id := fmt.Sprintf("d%03d", i)
		ix.Add(id, text)
		if allow(id) {
			only.Add(id, text)
			n++
			total += len(ix.Tokens(text))
		}
	}
	for _, q := range []string{"salary of the ceo", "secret market", "lyon", "nothing here"} {
		got, want := ix.SearchIn(q, 20, allow, n, total), only.Search(q, 20, nil)
		if !sameHits(got, want) {
			t.Fatalf("query %q:\n got %v\nwant %v", q, got, want)
		}
		if q == "secret market" && sameHits(ix.Search(q, 20, allow), want) {
			t.Fatalf("Search's statistics should count the hidden documents too; the test cannot tell the two apart")
		}
	}
}

// SearchInTagged asks its predicate about AddTagged's numbers and ranks as
// SearchIn does.
func TestSearchInTagged(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	for i := range 50 {
		ix.AddTagged(fmt.Sprintf("d%02d", i), uint32(i), fmt.Sprintf("word%d common", i%5))
	}
	allowTag := func(tag uint32) bool { return tag%2 == 0 }
	allowID := func(id string) bool { return (id[2]-'0')%2 == 0 }
	got := ix.SearchInTagged("word2 common", 10, allowTag, 25, 50)
	want := ix.SearchIn("word2 common", 10, allowID, 25, 50)
	if len(got) == 0 || !sameHits(got, want) {
		t.Fatalf("tagged %v\n  ids %v", got, want)
	}
}

// SearchInTags ranks as SearchInTagged with the same set, leaves out a
// tag past the end of the bitset, and never admits a removed document
// whose tag a live one (allowed) reuses.
func TestSearchInTags(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	for i := range 200 {
		ix.AddTagged(fmt.Sprintf("d%03d", i), uint32(i), fmt.Sprintf("word%d common", i%5))
	}
	ix.Remove("d010")
	ix.AddTagged("e010", 10, "unrelated text") // reuses the removed document's tag
	tags := make([]uint64, 2)                  // tags 0–127; 128–199 are past the end
	allow := func(tag uint32) bool { return tag < 128 && tag%2 == 0 }
	for tag := range uint32(128) {
		if allow(tag) {
			tags[tag>>6] |= 1 << (tag & 63)
		}
	}
	for _, q := range []string{"word0 common", "common", "word2", "unrelated word0"} {
		got := ix.SearchInTags(q, 30, tags, 64, 128)
		want := ix.SearchInTagged(q, 30, allow, 64, 128)
		if len(got) == 0 || !sameHits(got, want) {
			t.Fatalf("query %q: tags %v\n  tagged %v", q, got, want)
		}
		for _, h := range got {
			if h.ID == "d010" {
				t.Fatalf("query %q found the removed d010", q)
			}
		}
	}
}

// Tokenize's ASCII table and hand-written split agree with the definition
// (strings.FieldsFunc over strings.ToLower, letters and digits) on random
// mixes of ASCII, accented and other scripts' letters, marks, digits,
// punctuation and invalid UTF-8.
func TestTokenizeMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "Z", "9", " ", "-", "_", "'", "é", "Ü", "ß", "İ", "\u0307", "日本", "٣", "\xff", "\n", "x2", "Ωμέγα", "!"}
	for range 2000 {
		var s string
		for range rng.IntN(20) {
			s += pieces[rng.IntN(len(pieces))]
		}
		want := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if got := textindex.Tokenize(s); !slices.Equal(got, want) {
			t.Fatalf("Tokenize(%q) = %q, want %q", s, got, want)
		}
	}
}

// A term repeated in a document counts its repeats (tf), wherever they
// are, and Remove after it leaves nothing behind.
func TestRepeatsAndRemove(t *testing.T) {
	ix := textindex.New(textindex.Config{})
	ix.Add("a", "x y x z x")
	ix.Add("b", "x y")
	ix.Add("c", "q")
	fresh := textindex.New(textindex.Config{})
	fresh.Add("a", "x x x y z")
	fresh.Add("b", "y x")
	fresh.Add("c", "q")
	if got, want := ix.Search("x y z", 5, nil), fresh.Search("x y z", 5, nil); !sameHits(got, want) {
		t.Fatalf("order of words changed scores: %v vs %v", got, want)
	}
	ix.Remove("a")
	ix.Remove("b")
	if got := ix.Search("x y z", 5, nil); len(got) != 0 {
		t.Fatalf("removed documents found: %v", got)
	}
	if got := ix.Search("q", 5, nil); len(got) != 1 || got[0].ID != "c" {
		t.Fatalf("q = %v", got)
	}
}
