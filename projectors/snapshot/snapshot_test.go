package snapshot_test

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/snapshot"
	"github.com/cmem/cmem/projectors/snapshot/snapshottest"
)

// section is a hand-written snapshot.Section holding one string.
type section struct {
	name, state string
	fail        bool
}

func (s *section) Name() string { return s.name }

func (s *section) MarshalSnapshot(context.Context, snapshot.Sealer) ([]byte, error) {
	return []byte(s.state), nil
}

func (s *section) RestoreSnapshot(_ context.Context, _ snapshot.Sealer, _ uint64, data []byte) (func(), error) {
	if s.fail {
		return nil, errors.New("cannot decode")
	}
	return func() { s.state = string(data) }, nil
}

type holder struct{ rev uint64 }

func (h holder) Hold(fn func(uint64) error) error { return fn(h.rev) }

func TestDecodeRefusesOtherVersionsAndCorruptBlobs(t *testing.T) {
	blob := snapshot.Encode(snapshot.Header{Revision: 7}, []string{"a", "b"}, map[string][]byte{"a": []byte("xx"), "b": []byte("yyy")})
	h, parts, err := snapshot.Decode(blob)
	if err != nil || h.Revision != 7 || string(parts["a"]) != "xx" || string(parts["b"]) != "yyy" {
		t.Fatalf("round trip: %+v %q %v", h, parts, err)
	}
	other := slices.Clone(blob)
	binary.BigEndian.PutUint32(other[8:], snapshot.Version+1)
	if _, _, err := snapshot.Decode(other); !errors.Is(err, snapshot.ErrVersion) {
		t.Errorf("another version: %v, want ErrVersion", err)
	}
	for i := 12; i < len(blob); i += 7 {
		flipped := slices.Clone(blob)
		flipped[i] ^= 0x20
		if _, _, err := snapshot.Decode(flipped); !errors.Is(err, snapshot.ErrCorrupt) {
			t.Fatalf("byte %d flipped: %v, want ErrCorrupt", i, err)
		}
	}
	for _, n := range []int{0, 5, 20, len(blob) - 1} {
		if _, _, err := snapshot.Decode(blob[:n]); !errors.Is(err, snapshot.ErrCorrupt) {
			t.Errorf("truncated to %d bytes: %v, want ErrCorrupt", n, err)
		}
	}
}

// Restore installs a good snapshot into every section, and leaves every
// section untouched (and returns 0: rebuild from the log) for a snapshot
// it cannot use.
func TestRestoreAllOrNothing(t *testing.T) {
	ctx := context.Background()
	good := func() (*snapshottest.Mem, *section, *section) {
		st := snapshottest.NewMem()
		a, b := &section{name: "a", state: "A@10"}, &section{name: "b", state: "B@10"}
		w := snapshot.NewWriter(snapshot.Config{}, st, snapshot.Clear{}, "test", nil, a, b)
		if _, err := w.Take(ctx, holder{10}); err != nil {
			t.Fatal(err)
		}
		a.state, b.state = "empty", "empty"
		return st, a, b
	}
	st, a, b := good()
	if rev := snapshot.Restore(ctx, st, snapshot.Clear{}, 10, nil, a, b); rev != 10 || a.state != "A@10" || b.state != "B@10" {
		t.Fatalf("restore = %d, sections %q %q", rev, a.state, b.state)
	}
	cases := map[string]func(st *snapshottest.Mem, a, b *section) (head uint64, sections []snapshot.Section){
		"corrupt": func(st *snapshottest.Mem, a, b *section) (uint64, []snapshot.Section) {
			_, blob, err := st.Newest(ctx)
			if err != nil {
				t.Fatal(err)
			}
			blob[len(blob)/2] ^= 1
			if err := st.Put(ctx, 10, blob); err != nil {
				t.Fatal(err)
			}
			return 10, []snapshot.Section{a, b}
		},
		"ahead of the log": func(_ *snapshottest.Mem, a, b *section) (uint64, []snapshot.Section) {
			return 9, []snapshot.Section{a, b}
		},
		"a section missing": func(_ *snapshottest.Mem, a, b *section) (uint64, []snapshot.Section) {
			return 10, []snapshot.Section{a, b, &section{name: "c"}}
		},
		"a section undecodable": func(_ *snapshottest.Mem, a, b *section) (uint64, []snapshot.Section) {
			b.fail = true
			return 10, []snapshot.Section{a, b}
		},
		"none": func(st *snapshottest.Mem, a, b *section) (uint64, []snapshot.Section) {
			if err := st.Prune(ctx, 0); err != nil {
				t.Fatal(err)
			}
			return 10, []snapshot.Section{a, b}
		},
	}
	for name, spoil := range cases {
		st, a, b := good()
		head, sections := spoil(st, a, b)
		if rev := snapshot.Restore(ctx, st, snapshot.Clear{}, head, nil, sections...); rev != 0 || a.state != "empty" || b.state != "empty" {
			t.Errorf("%s: restore = %d, sections %q %q; want 0 and both untouched", name, rev, a.state, b.state)
		}
	}
}

// The writer takes a snapshot once Every events passed since the last,
// keeps Keep of them, and none while Every is negative.
func TestWriterTakesOneEveryInterval(t *testing.T) {
	ctx := context.Background()
	st := snapshottest.NewMem()
	s := &section{name: "a", state: "x"}
	w := snapshot.NewWriter(snapshot.Config{Every: 100, MinPeriod: -1, Keep: 2}, st, snapshot.Clear{}, "test", nil, s)
	for _, rev := range []uint64{50, 99, 100, 150, 199, 230, 260, 330} {
		w.AfterBatch(ctx, rev)
		w.Wait()
	}
	revs, _ := st.Revisions(ctx)
	if !slices.Equal(revs, []uint64{230, 330}) { // taken at 100, 230, 330; 2 kept
		t.Errorf("snapshots kept at %v, want [230 330]", revs)
	}
	empty := snapshottest.NewMem()
	none := snapshot.NewWriter(snapshot.Config{Every: -1, MinPeriod: -1}, empty, snapshot.Clear{}, "test", nil, s)
	none.AfterBatch(ctx, 1<<40)
	none.Wait()
	if revs, _ := empty.Revisions(ctx); len(revs) != 0 {
		t.Error("a writer with a negative Every took a snapshot")
	}
	slow := snapshot.NewWriter(snapshot.Config{Every: 1, MinPeriod: time.Hour}, st, snapshot.Clear{}, "test", nil, s)
	slow.AfterBatch(ctx, 1000)
	slow.Wait()
	if revs, _ := st.Revisions(ctx); slices.Contains(revs, 1000) {
		t.Error("a snapshot was taken sooner than MinPeriod after the writer started")
	}
}
