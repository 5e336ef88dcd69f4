package textindex

// Remove drops id from the index and reports whether it was there.
func (ix *Index) Remove(id string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.removeLocked(id)
}

// RemoveDoc drops the document AddDoc numbered doc and reports whether it
// was there.
func (ix *Index) RemoveDoc(doc uint32) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.removeDocLocked(doc)
}

func (ix *Index) removeLocked(id string) bool {
	s, ok := ix.ids[id]
	if !ok {
		return false
	}
	delete(ix.ids, id)
	ix.removeSlot(s)
	return true
}

func (ix *Index) removeDocLocked(doc uint32) bool {
	if int(doc) >= len(ix.docs) || ix.docs[doc] == 0 {
		return false
	}
	s := ix.docs[doc] - 1
	ix.docs[doc] = 0
	ix.removeSlot(s)
	return true
}

// removeSlot drops the live slot s. A term no document holds any more
// goes at once, from the index and, unless another index sharing its
// vocabulary holds it, name and all, so nothing of an erased text stays.
func (ix *Index) removeSlot(s int32) {
	if int(s) >= ix.flushed {
		ix.flush() // its terms' df must count it before they drop it
	}
	sl := &ix.slots[s]
	ix.live--
	ix.dead++
	ix.totalLen -= int(ix.hot[s].len)
	ix.hot[s].len = -1
	ents := ix.arena[sl.off : sl.off+int(sl.n)]
	for _, e := range ents {
		at := ix.local[e.tid]
		tm := &ix.termTab[at]
		tm.df--
		if tm.df == 0 && ix.flushed < len(ix.slots) {
			// A pending document may hold the term still.
			ix.flush()
			tm = &ix.termTab[at] // flush may have moved termTab
		}
		switch {
		case tm.df == 0:
			delete(ix.local, e.tid)
			*tm = term{}
			ix.freeTerms = append(ix.freeTerms, at)
		case len(tm.postings) > 2*tm.df+8:
			// More dead postings than live ones: drop them, so a
			// search never walks more than about twice the live list.
			live := tm.postings[:0]
			for _, p := range tm.postings {
				if ix.hot[p.slot].alive() {
					live = append(live, p)
				}
			}
			tm.postings = live
		}
	}
	// The vocabulary drops, name and all, a term no document of any
	// index sharing it holds any more.
	ix.vocab.release(ents)
	sl.n = 0
	sl.id = ""
	if ix.dead > ix.live+1024 {
		ix.compact()
	}
}

// compact renumbers the live slots from 0, so dead slots stop costing
// memory and scratch space, and builds every posting afresh from the
// slots' terms (flush), without the dead ones.
func (ix *Index) compact() {
	slots := make([]slot, 0, ix.live)
	hots := make([]hot, 0, ix.live)
	var arena []entry
	for i, sl := range ix.slots {
		if !ix.hot[i].alive() {
			continue
		}
		s := int32(len(slots))
		if sl.byDoc {
			ix.docs[sl.doc] = s + 1
		} else {
			ix.ids[sl.id] = s
		}
		off := len(arena)
		arena = append(arena, ix.arena[sl.off:sl.off+int(sl.n)]...)
		sl.off = off
		slots = append(slots, sl)
		hots = append(hots, ix.hot[i])
	}
	for i := range ix.termTab {
		ix.termTab[i].postings, ix.termTab[i].df = nil, 0
	}
	ix.slots, ix.hot, ix.arena = slots, hots, arena
	ix.slab = nil
	ix.dead, ix.flushed = 0, 0
	ix.flush()
}
