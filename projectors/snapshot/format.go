package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// Version is the format version Encode writes and Decode accepts. Bump it
// when any section's encoding changes incompatibly: a process then refuses
// older snapshots and rebuilds from the log.
const Version = 1

// magic starts every snapshot blob.
var magic = []byte("CMEMSNAP")

// Header describes a snapshot.
type Header struct {
	Revision uint64    `json:"revision"`
	TakenAt  time.Time `json:"taken_at"`
	Source   string    `json:"source,omitempty"`
	Sections []Part    `json:"sections"`
}

// Part is one section's place in the blob.
type Part struct {
	Name string `json:"name"`
	Len  int    `json:"len"`
}

// Encode lays out a snapshot: magic, version (uint32), header length
// (uint32), JSON header, the sections in header order, then the SHA-256 of
// everything before it. h.Sections is filled from sections (in names order).
func Encode(h Header, names []string, sections map[string][]byte) []byte {
	h.Sections = h.Sections[:0]
	size := 0
	for _, n := range names {
		h.Sections = append(h.Sections, Part{Name: n, Len: len(sections[n])})
		size += len(sections[n])
	}
	hdr, _ := json.Marshal(h) // a struct of plain fields: cannot fail
	var buf bytes.Buffer
	buf.Grow(len(magic) + 8 + len(hdr) + size + sha256.Size)
	buf.Write(magic)
	_ = binary.Write(&buf, binary.BigEndian, uint32(Version))
	_ = binary.Write(&buf, binary.BigEndian, uint32(len(hdr)))
	buf.Write(hdr)
	for _, n := range names {
		buf.Write(sections[n])
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	return buf.Bytes()
}

// Decode checks a blob (magic, version, checksum, layout) and returns its
// header and sections by name. The sections alias blob.
func Decode(blob []byte) (Header, map[string][]byte, error) {
	var h Header
	if len(blob) < len(magic)+8+sha256.Size || !bytes.Equal(blob[:len(magic)], magic) {
		return h, nil, fmt.Errorf("%w: no snapshot magic", ErrCorrupt)
	}
	rest := blob[len(magic):]
	if v := binary.BigEndian.Uint32(rest); v != Version {
		return h, nil, fmt.Errorf("%w: version %d, this build reads %d", ErrVersion, v, Version)
	}
	body, sum := blob[:len(blob)-sha256.Size], blob[len(blob)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return h, nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	n := int(binary.BigEndian.Uint32(rest[4:]))
	rest = body[len(magic)+8:]
	if n > len(rest) {
		return h, nil, fmt.Errorf("%w: header overruns the blob", ErrCorrupt)
	}
	if err := json.Unmarshal(rest[:n], &h); err != nil {
		return h, nil, fmt.Errorf("%w: header: %w", ErrCorrupt, err)
	}
	rest = rest[n:]
	out := make(map[string][]byte, len(h.Sections))
	for _, p := range h.Sections {
		if p.Len < 0 || p.Len > len(rest) {
			return h, nil, fmt.Errorf("%w: section %s overruns the blob", ErrCorrupt, p.Name)
		}
		out[p.Name], rest = rest[:p.Len:p.Len], rest[p.Len:]
	}
	if len(rest) != 0 {
		return h, nil, fmt.Errorf("%w: %d bytes after the last section", ErrCorrupt, len(rest))
	}
	return h, out, nil
}
