package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cmem/cmem/domain"
)

// checkKeysReference is checkKeys as it was written on encoding/json's
// tokens, kept to hold the faster walk to the same verdicts and messages.
func checkKeysReference(raw []byte) error {
	type frame struct {
		object, key bool
		seen        map[string]string
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k, _ := tok.(string)
			fold := strings.ToLower(k)
			if prev, dup := top.seen[fold]; dup {
				if prev == k {
					return fmt.Errorf("%w: duplicate key %q", domain.ErrInvalid, k)
				}
				return fmt.Errorf("%w: keys %q and %q differ only in case", domain.ErrInvalid, prev, k)
			}
			top.seen[fold] = k
			top.key = false
			continue
		}
		if top != nil && top.object {
			top.key = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, key: true, seen: map[string]string{}})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > maxDepth {
			return fmt.Errorf("%w: JSON nested deeper than %d", domain.ErrInvalid, maxDepth)
		}
	}
}

// keySeeds are documents at the edges of the key check: collisions by
// case and exactly, at depth, in arrays of objects, past the point where
// a frame moves to a map, keys equal to values, invalid UTF-8 and escapes
// in keys, syntax errors before and after a collision, and nesting at
// the limit.
func keySeeds() []string {
	many := func(n int, last string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(`"` + last + `":0}`)
		return b.String()
	}
	return []string{
		`{"a":1,"A":2}`, `{"a":1,"a":2}`, `{"a":{"b":[{"c":1,"c":2}]}}`, `{"a":"A","A":"a"}`, `{"a":"a"}`,
		`[{"x":1},{"x":1},{"X":1}]`, `{"x":{"y":1},"y":{"x":1},"X":0}`, `{"k":"k","v":["k","K"]}`,
		many(20, "k3"), many(20, "K19"), many(15, "k14"), many(16, "K0"), many(40, "q"),
		"{\"\xff\":1,\"\xfe\":2}", `{"\u00e9":1,"\u00c9":2}`, `{"\u0041":1,"a":2}`, `{"a":1,}`, `{"a":1 "A":2}`,
		`{"a":1,"A":`, `{"a":[1,2,{"b":1,"B":2}]}`, `[1,2]`, `"str"`, `{"a":1} {"a":1,"A":2}`, ``, `{`,
		strings.Repeat(`[`, maxDepth) + strings.Repeat(`]`, maxDepth), strings.Repeat(`[`, maxDepth+1) + strings.Repeat(`]`, maxDepth+1),
		strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat(`}`, maxDepth),
		`{"K":1,"k":2}`, "{\"\u212a\":1,\"k\":2}", `{"ß":1,"SS":2}`, `{"a":null,"b":true,"B":false}`,
	}
}

// sameVerdict fails t unless both walks answer raw alike.
func sameVerdict(t *testing.T, raw []byte) {
	t.Helper()
	got, want := checkKeys(raw), checkKeysReference(raw)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%q: checkKeys says %v, the reference %v", raw, got, want)
	}
}

// TestCheckKeysMatchesReference: on the seeds and on thousands of random
// mutations of them, checkKeys refuses exactly what the encoding/json
// walk refuses, with the same message.
func TestCheckKeysMatchesReference(t *testing.T) {
	refused := 0
	for _, s := range keySeeds() {
		sameVerdict(t, []byte(s))
		if checkKeysReference([]byte(s)) != nil {
			refused++
		}
	}
	if refused < 10 {
		t.Fatalf("only %d seeds are refused: the comparison proves little", refused)
	}
	r := rand.New(rand.NewPCG(28, 2))
	alphabet := []byte(`{}[]":,aAkK1 \` + "\xff")
	for _, s := range keySeeds() {
		for range 300 {
			b := []byte(s)
			for range 1 + r.IntN(3) {
				if len(b) == 0 {
					break
				}
				i := r.IntN(len(b))
				switch r.IntN(3) {
				case 0:
					b[i] = alphabet[r.IntN(len(alphabet))]
				case 1:
					b = append(b[:i], b[i+1:]...)
				default:
					b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
				}
			}
			sameVerdict(t, b)
		}
	}
}

// FuzzCheckKeys: on any input, checkKeys and the encoding/json walk agree.
func FuzzCheckKeys(f *testing.F) {
	for _, s := range keySeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameVerdict(t, raw) })
}
