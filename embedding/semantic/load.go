package semantic

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"sync"
)

// vectorsFile is written by ./gen: "CMEMWV1\n", uint32 words, uint32
// dims, uint32 length of the newline-joined vocabulary (most frequent
// word first), the vocabulary, then per word a float32 scale and dims
// int8 components; all little endian.
//
//go:embed vectors.bin
var vectorsFile []byte

// table is the decoded vocabulary: unit word vectors by frequency rank.
type table struct {
	dims  int
	index map[string]int32
	vecs  []float32 // len(index) * dims, each row unit length
}

var (
	loadOnce sync.Once
	loaded   *table
	loadErr  error
)

func vocabulary() (*table, error) {
	loadOnce.Do(func() { loaded, loadErr = decode(vectorsFile) })
	return loaded, loadErr
}

func decode(b []byte) (*table, error) {
	const magic = "CMEMWV1\n"
	if len(b) < len(magic)+12 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("semantic: vectors.bin: bad header")
	}
	le := binary.LittleEndian
	n := int(le.Uint32(b[8:]))
	dims := int(le.Uint32(b[12:]))
	wl := int(le.Uint32(b[16:]))
	off := 20 + wl
	if dims <= 0 || len(b) != off+n*(4+dims) {
		return nil, fmt.Errorf("semantic: vectors.bin: %d bytes, want %d", len(b), off+n*(4+dims))
	}
	words := strings.Split(string(b[20:off]), "\n")
	if len(words) != n {
		return nil, fmt.Errorf("semantic: vectors.bin: %d words, header says %d", len(words), n)
	}
	t := &table{dims: dims, index: make(map[string]int32, n), vecs: make([]float32, n*dims)}
	for i, w := range words {
		t.index[w] = int32(i)
		rec := b[off+i*(4+dims):]
		scale := math.Float32frombits(le.Uint32(rec))
		row := t.vecs[i*dims : (i+1)*dims]
		var norm float64
		for j := range row {
			row[j] = float32(int8(rec[4+j])) * scale
			norm += float64(row[j]) * float64(row[j])
		}
		if norm > 0 {
			inv := float32(1 / math.Sqrt(norm))
			for j := range row {
				row[j] *= inv
			}
		}
	}
	return t, nil
}
