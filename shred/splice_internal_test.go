package shred

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendJSONStringIsEncodingJSON: every byte value, at every place of
// the eight-byte steps, is written as encoding/json writes it.
func TestAppendJSONStringIsEncodingJSON(t *testing.T) {
	for b := range 256 {
		for at := range 17 {
			s := bytes.Repeat([]byte("a"), 17)
			s[at] = byte(b)
			want, err := json.Marshal(string(s))
			if err != nil {
				t.Fatal(err)
			}
			if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
				t.Fatalf("byte %#x at %d: wrote %s, encoding/json %s", b, at, got, want)
			}
		}
	}
	for _, s := range []string{"é日本 \u2028\u2029 \U0001F600", "\xe2\x80", "abcdefgh\xc3\xa9abcdefgh"} {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, []byte(s)); !bytes.Equal(got, want) {
			t.Fatalf("%q: wrote %s, encoding/json %s", s, got, want)
		}
	}
}
