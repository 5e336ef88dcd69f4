package events

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
)

// EncodeVector packs v as little-endian float32s in standard base64, the
// wire form of Embedding.Vector.
func EncodeVector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeVector unpacks an Embedding; the length must match Dims.
func (e Embedding) DecodeVector() ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(e.Vector)
	if err != nil {
		return nil, fmt.Errorf("%w: embedding vector: %w", ErrInvalid, err)
	}
	if len(b) != 4*e.Dims {
		return nil, fmt.Errorf("%w: embedding has %d bytes, want %d for %d dims", ErrInvalid, len(b), 4*e.Dims, e.Dims)
	}
	v := make([]float32, e.Dims)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
