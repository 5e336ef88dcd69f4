package textindex

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTermTableMatchesMap drives the term table through inserts and
// removals against a map. The hashes are drawn from a few values with
// equal tags, so that probe runs are long, wrap round the end of the
// table and hold tag collisions, which only the key or name compare resolves:
// a removal that left a hole in a run, or a lookup that trusted the tag,
// fails it.
func TestTermTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tt termTable
	var tab []string
	var free []int32
	want := map[string]int32{}
	hashOf := func(name string) uint64 {
		// 24 homes near the table's end; the names of a home share its
		// tag (the hash's low bits).
		var n int
		for i := range len(name) {
			n += int(name[i])
		}
		return 7<<32 | uint64(1000+n%24)
	}
	for step := range 20_000 {
		// Short names, told apart by the entry's key, and long ones with
		// equal keys (the same length and first 7 bytes), only by name.
		name := fmt.Sprintf("t%d", rng.IntN(300))
		if rng.IntN(2) == 0 {
			name = fmt.Sprintf("tlongword%03d", rng.IntN(300))
		}
		h := hashOf(name)
		tid := tt.find(tab, name, h)
		if w, ok := want[name]; (tid >= 0) != ok || (ok && tid != w) {
			t.Fatalf("step %d: find(%s) = %d, want %d (present %v)", step, name, tid, w, ok)
		}
		switch {
		case tid < 0:
			var id int32
			if n := len(free); n > 0 {
				id, free = free[n-1], free[:n-1]
			} else {
				id = int32(len(tab))
				tab = append(tab, "")
			}
			tab[id] = name
			tt.insert(name, h, id)
			want[name] = id
		case rng.IntN(2) == 0:
			tt.remove(tid, h)
			tab[tid] = ""
			free = append(free, tid)
			delete(want, name)
		}
		if tt.n != len(want) {
			t.Fatalf("step %d: %d entries, want %d", step, tt.n, len(want))
		}
	}
	for name, w := range want {
		if got := tt.find(tab, name, hashOf(name)); got != w {
			t.Fatalf("find(%s) = %d, want %d", name, got, w)
		}
	}
}
