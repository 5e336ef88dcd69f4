package textindex

import "hash/maphash"

// termTable maps a term to its number in Index.termTab. Adding a document
// looks up every one of its tokens, and a Go map spent most of that time
// in its group probing and string compares; this table is one flat array
// of 8-byte entries probed linearly, keyed by a 64-bit hash of the term
// computed once per token. An entry holds 32 bits of the hash (the tag)
// and the term's number + 1 (0 is an empty entry); a tag match is
// confirmed by comparing the term's name, so a hash collision costs one
// compare and never yields the wrong term.
type termTable struct {
	entries []uint64 // tag<<32 | (number+1); len is a power of two
	n       int      // entries in use
}

// termSeed keys the terms' hashes; per process, so no input can be
// crafted to collide.
var termSeed = maphash.MakeSeed()

func hashTerm(t string) uint64 { return maphash.String(termSeed, t) }

// tagOf is the part of h an entry keeps; the low bits choose the entry.
func tagOf(h uint64) uint32 { return uint32(h >> 32) }

// find returns the number of the term t with hash h, or -1.
func (tt *termTable) find(tab []term, t string, h uint64) int32 {
	if tt.n == 0 {
		return -1
	}
	mask := uint64(len(tt.entries) - 1)
	tag := tagOf(h)
	for i := h & mask; ; i = (i + 1) & mask {
		e := tt.entries[i]
		if e == 0 {
			return -1
		}
		if uint32(e>>32) == tag {
			if tid := int32(uint32(e)) - 1; tab[tid].name == t {
				return tid
			}
		}
	}
}

// touch reads the home entry of each hash, so that the lookups which
// follow find them in cache; it returns nothing of use (a sum, so the
// reads are not dropped).
func (tt *termTable) touch(hs []uint64) (sum uint64) {
	if len(tt.entries) == 0 {
		return 0
	}
	mask := uint64(len(tt.entries) - 1)
	for _, h := range hs {
		sum += tt.entries[h&mask]
	}
	return sum
}

// insert adds the term numbered tid with hash h, which must not be in the
// table; tab holds every term already in it.
func (tt *termTable) insert(tab []term, h uint64, tid int32) {
	// At most half full: probes stay short and an empty entry always
	// ends a miss.
	if 2*(tt.n+1) > len(tt.entries) {
		tt.grow(tab)
	}
	tt.place(uint64(tagOf(h))<<32|uint64(uint32(tid+1)), h)
	tt.n++
}

// place puts the entry e of hash h in the first empty entry of its probe
// sequence.
func (tt *termTable) place(e, h uint64) {
	mask := uint64(len(tt.entries) - 1)
	i := h & mask
	for tt.entries[i] != 0 {
		i = (i + 1) & mask
	}
	tt.entries[i] = e
}

// grow doubles the table. An entry keeps only 32 bits of its hash; the
// whole hash is the term's (term.hash).
func (tt *termTable) grow(tab []term) {
	old := tt.entries
	tt.entries = make([]uint64, max(16, 2*len(old)))
	for _, e := range old {
		if e != 0 {
			tt.place(e, hashOfEntry(tab, e))
		}
	}
}

// hashOfEntry is the whole hash of the term the entry e names.
func hashOfEntry(tab []term, e uint64) uint64 { return tab[int32(uint32(e))-1].hash }

// remove deletes the term numbered tid with hash h, shifting later entries
// of the probe run back so that no lookup stops short at the hole.
func (tt *termTable) remove(tab []term, tid int32, h uint64) {
	mask := uint64(len(tt.entries) - 1)
	i := h & mask
	want := uint32(tid + 1)
	for uint32(tt.entries[i]) != want {
		i = (i + 1) & mask
	}
	// Backward-shift deletion: an entry after the hole moves into it
	// unless its home lies cyclically in (hole, entry].
	for j := (i + 1) & mask; tt.entries[j] != 0; j = (j + 1) & mask {
		home := hashOfEntry(tab, tt.entries[j]) & mask
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			tt.entries[i] = tt.entries[j]
			i = j
		}
	}
	tt.entries[i] = 0
	tt.n--
}
