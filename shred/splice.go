package shred

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"unicode/utf8"
)

// openedField is one sealed string of an event's stored data and the
// plaintext it opened to.
type openedField struct {
	sealed string
	plain  []byte
	used   bool
}

// sealedToken starts every sealed string in the data: its opening quote
// and the prefix.
var sealedToken = []byte(`"` + prefix)

// splice returns data with every sealed string replaced by its opened
// plaintext, written as encoding/json writes a string. Re-encoding the
// opened payload with encoding/json was a fifth of a sealed rebuild's CPU
// (issue 28's profile); for data that Seal wrote, which is encoding/json's
// own output, the splice gives the same bytes, and for any data it gives
// what decoding the re-encoded payload gives, since only the sealed
// strings change.
//
// It answers only when it is sure (ok): every `"sealed:v1:` in data is the
// start of a string (no backslash before its quote) whose raw bytes, with
// no escape in them, are the sealed value of exactly one field not yet
// used, and every field is used. Anything else (a sealed token in another
// member, one spelled with escapes, one used twice) is left to the caller's
// encoding/json.
func splice(data []byte, fields []openedField) (out []byte, ok bool) {
	size := len(data)
	for _, f := range fields {
		size += len(f.plain) + len(f.plain)/8 - len(f.sealed)
	}
	out = make([]byte, 0, max(size, len(data)))
	rest := data
	for {
		i := bytes.Index(rest, sealedToken)
		if i < 0 {
			break
		}
		if i > 0 && rest[i-1] == '\\' {
			return nil, false
		}
		end := bytes.IndexByte(rest[i+1:], '"')
		if end < 0 {
			return nil, false
		}
		tok := rest[i+1 : i+1+end]
		if bytes.IndexByte(tok, '\\') >= 0 {
			return nil, false
		}
		k := unusedField(fields, tok)
		if k < 0 {
			return nil, false
		}
		fields[k].used = true
		out = appendJSONString(append(out, rest[:i]...), fields[k].plain)
		rest = rest[i+1+end+1:]
	}
	for _, f := range fields {
		if !f.used {
			return nil, false
		}
	}
	return append(out, rest...), true
}

// unusedField is the index of the first field not yet used whose sealed
// value is tok, or -1.
func unusedField(fields []openedField, tok []byte) int {
	for k := range fields {
		if !fields[k].used && fields[k].sealed == string(tok) {
			return k
		}
	}
	return -1
}

// appendJSONString appends s as encoding/json writes a string (HTML
// characters escaped, invalid UTF-8 replaced): bytes that need nothing
// are copied, and any string with something to escape goes to
// encoding/json itself.
func appendJSONString(buf, s []byte) []byte {
	for i := 0; i < len(s); {
		if i+8 <= len(s) && !htmlSpecial(binary.LittleEndian.Uint64(s[i:])) {
			i += 8 // a base64 embedding is 1.4 KB of such bytes
			continue
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
				return appendEncoded(buf, s)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
			return appendEncoded(buf, s)
		}
		i += n
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// htmlSpecial reports whether any of the 8 bytes of x is one that
// encoding/json escapes (a quote, a backslash, a control character, <, >
// or &) or not ASCII, eight bytes a step (SWAR).
func htmlSpecial(x uint64) bool {
	zero := func(v uint64) uint64 { return (v - lsb) &^ v & msb }
	return (x&msb)|zero(x^(lsb*'"'))|zero(x^(lsb*'\\'))|zero(x^(lsb*'<'))|zero(x^(lsb*'>'))|zero(x^(lsb*'&'))|
		((x-lsb*0x20)&^x&msb) != 0
}

// appendEncoded appends encoding/json's encoding of the string s.
func appendEncoded(buf, s []byte) []byte {
	enc, _ := json.Marshal(string(s)) // a string always encodes
	return append(buf, enc...)
}
