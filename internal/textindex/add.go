package textindex

import (
	"slices"
	"sync"
)

// Add indexes text under id, replacing what id held before. A text with no
// tokens is still a document (it counts in N and matches nothing).
func (ix *Index) Add(id, text string) { ix.AddTagged(id, 0, text) }

// AddTagged is Add with a number the caller chooses, which
// SearchInTagged's allow predicate is given instead of the id: a caller
// that keeps its documents in arrays checks a document by its number
// without reading its id. It returns the document's length in tokens.
func (ix *Index) AddTagged(id string, tag uint32, text string) int {
	return ix.add(slot{id: id}, tag, text)
}

// AddDoc indexes the texts, as one document, under the caller's number
// doc, replacing what doc held before, with tag as AddTagged's; it
// returns the document's length in tokens. The texts are tokenised apart,
// so AddDoc(d, t, a, b) indexes the tokens of a + "\n" + b without
// building that string. A document added by AddDoc has no id: it is
// found by SearchDocs and removed by RemoveDoc. The index keeps an array
// as long as the largest number, so numbers should be dense (reused when
// their documents go).
func (ix *Index) AddDoc(doc, tag uint32, texts ...string) int {
	return ix.add(slot{doc: doc, byDoc: true}, tag, texts...)
}

// add indexes the texts as the document sl (its id or number set).
func (ix *Index) add(sl slot, tag uint32, texts ...string) int {
	buf := tokenBufs.Get().(*tokenBuf)
	toks := buf.toks[:0]
	for _, text := range texts {
		toks = ix.appendTokens(toks, text)
	}
	n := len(toks)
	hs := buf.hashes[:0] // hashing needs no lock
	for _, t := range toks {
		hs = append(hs, hashTerm(t))
	}
	// The document's terms are numbered (and counted as held) before the
	// old version goes, so a term both hold is never dropped between.
	// Their postings are not touched here but in flush, a batch of
	// documents at a time.
	ents := ix.vocab.numberDoc(toks, hs, buf.ents[:0])
	ix.mu.Lock()
	if sl.byDoc {
		ix.removeDocLocked(sl.doc)
	} else {
		ix.removeLocked(sl.id)
	}
	s := int32(len(ix.slots))
	sl.off = len(ix.arena)
	ix.arena = append(ix.arena, ents...)
	sl.n = int32(len(ix.arena) - sl.off)
	ix.slots = append(ix.slots, sl)
	ix.hot = append(ix.hot, hot{tag: tag, len: int32(n)})
	if sl.byDoc {
		if int(sl.doc) >= len(ix.docs) {
			ix.docs = slices.Grow(ix.docs, int(sl.doc)+1-len(ix.docs))[:sl.doc+1]
		}
		ix.docs[sl.doc] = s + 1
	} else {
		ix.ids[sl.id] = s
	}
	ix.live++
	ix.totalLen += n
	if len(ix.arena)-ix.slots[ix.flushed].off >= flushEntries {
		ix.flush()
	}
	ix.mu.Unlock()
	clear(toks)
	buf.toks, buf.hashes, buf.ents = toks[:0], hs[:0], ents[:0]
	tokenBufs.Put(buf)
	return n
}

// Tokens returns the terms the index makes of text: Tokenize, then Stem
// when Config.Stem is set.
func (ix *Index) Tokens(text string) []string { return ix.appendTokens(nil, text) }

// appendTokens appends Tokens(text) to dst.
func (ix *Index) appendTokens(dst []string, text string) []string {
	start := len(dst)
	dst = appendTokens(dst, text)
	if ix.cfg.Stem {
		for i := start; i < len(dst); i++ {
			dst[i] = Stem(dst[i])
		}
	}
	return dst
}

// tokenBuf is add's tokens of a document and their hashes.
type tokenBuf struct {
	toks   []string
	hashes []uint64
	ents   []entry
}

// tokenBufs holds add's buffers between documents.
var tokenBufs = sync.Pool{New: func() any { return new(tokenBuf) }}
