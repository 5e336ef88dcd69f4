package textindex

import "hash/maphash"

// termTable maps a term to its number in a Vocab. Adding a document
// looks up every one of its tokens, and a Go map spent most of that time
// in its group probing and string compares; this table is one flat array
// of 16-byte entries probed linearly, keyed by a 64-bit hash of the term
// computed once per token. An entry holds the hash's low 32 bits (the
// tag, which also places the entry, so the table grows and shifts
// entries without reading the terms),
// the term's number + 1 (0 is an empty entry) and the term's short key
// (keyOf): a term of up to 7 bytes, most words, is confirmed by the key
// in the entry itself, and a longer one by comparing its name, so a
// lookup waits for one cache line rather than three (entry, term, name)
// and never yields the wrong term.
type termTable struct {
	entries []ttEntry // len is a power of two
	n       int       // entries in use
}

// ttEntry is one entry of a termTable.
type ttEntry struct {
	e   uint64 // tag<<32 | (number+1)
	key uint64 // keyOf(name)
}

// keyOf packs a term's length (up to 255) and its first 7 bytes: two
// terms of up to 7 bytes are equal exactly when their keys are.
func keyOf(t string) uint64 {
	k := uint64(min(len(t), 255))
	for i := range min(len(t), 7) {
		k |= uint64(t[i]) << (8 * (i + 1))
	}
	return k
}

// termSeed keys the terms' hashes; per process, so no input can be
// crafted to collide.
var termSeed = maphash.MakeSeed()

func hashTerm(t string) uint64 { return maphash.String(termSeed, t) }

// tagOf is the part of h an entry keeps: its low bits, which also
// choose the entry (a table has fewer than 2³² entries).
func tagOf(h uint64) uint32 { return uint32(h) }

// find returns the number of the term t with hash h, or -1.
func (tt *termTable) find(names []string, t string, h uint64) int32 {
	if tt.n == 0 {
		return -1
	}
	mask := uint64(len(tt.entries) - 1)
	tag, key := tagOf(h), keyOf(t)
	for i := h & mask; ; i = (i + 1) & mask {
		en := &tt.entries[i]
		if en.e == 0 {
			return -1
		}
		if uint32(en.e>>32) == tag && en.key == key {
			if tid := int32(uint32(en.e)) - 1; len(t) <= 7 || names[tid] == t {
				return tid
			}
		}
	}
}

// touch reads the home entry of each hash, so that the lookups which
// follow find them in cache; it returns nothing of use but a sum, which
// the caller must keep (store), or the compiler drops the reads.
func (tt *termTable) touch(hs []uint64) (sum uint64) {
	if len(tt.entries) == 0 {
		return 0
	}
	mask := uint64(len(tt.entries) - 1)
	for _, h := range hs {
		sum += tt.entries[h&mask].e
	}
	return sum
}

// insert adds the term numbered tid, named t, with hash h, which must not
// be in the table.
func (tt *termTable) insert(t string, h uint64, tid int32) {
	// At most half full: probes stay short and an empty entry always
	// ends a miss.
	if 2*(tt.n+1) > len(tt.entries) {
		tt.grow()
	}
	tt.place(ttEntry{e: uint64(tagOf(h))<<32 | uint64(uint32(tid+1)), key: keyOf(t)}, h)
	tt.n++
}

// place puts the entry en of hash h in the first empty entry of its probe
// sequence.
func (tt *termTable) place(en ttEntry, h uint64) {
	mask := uint64(len(tt.entries) - 1)
	i := h & mask
	for tt.entries[i].e != 0 {
		i = (i + 1) & mask
	}
	tt.entries[i] = en
}

// grow doubles the table.
func (tt *termTable) grow() {
	old := tt.entries
	tt.entries = make([]ttEntry, max(16, 2*len(old)))
	for _, en := range old {
		if en.e != 0 {
			tt.place(en, homeOf(en.e))
		}
	}
}

// homeOf is the part of the hash of the entry e that places it: its tag.
func homeOf(e uint64) uint64 { return e >> 32 }

// remove deletes the term numbered tid with hash h, shifting later entries
// of the probe run back so that no lookup stops short at the hole.
func (tt *termTable) remove(tid int32, h uint64) {
	mask := uint64(len(tt.entries) - 1)
	i := h & mask
	want := uint32(tid + 1)
	for uint32(tt.entries[i].e) != want {
		i = (i + 1) & mask
	}
	// Backward-shift deletion: an entry after the hole moves into it
	// unless its home lies cyclically in (hole, entry].
	for j := (i + 1) & mask; tt.entries[j].e != 0; j = (j + 1) & mask {
		home := homeOf(tt.entries[j].e) & mask
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			tt.entries[i] = tt.entries[j]
			i = j
		}
	}
	tt.entries[i] = ttEntry{} // the key is part of a name: nothing of it stays
	tt.n--
}
