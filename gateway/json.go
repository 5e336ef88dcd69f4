package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/cmem/cmem/domain"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// answer writes ans with status, or err: the end of every handler whose
// last call returned both.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, status int, ans any, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, status, ans)
}

// decode reads exactly one JSON object into v. With strict it refuses
// unknown fields, so that a typo in a field name is an error and not a
// silent default.
func decode(r *http.Request, v any, strict bool) error {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("%w: body larger than the limit of %d bytes", domain.ErrTooLarge, tooBig.Limit)
		}
		return fmt.Errorf("%w: body: %w", domain.ErrInvalid, err)
	}
	return decodeBytes(raw, v, strict)
}

// decodeBytes is decode for a body already read (a NATS message). It
// refuses duplicate keys and keys that differ only in case anywhere in the
// document: encoding/json would keep the last one, or match either to a
// field, so the caller's intent is ambiguous.
func decodeBytes(raw []byte, v any, strict bool) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("%w: empty body, want a JSON object", domain.ErrInvalid)
	}
	if err := checkKeys(raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: body: %w", domain.ErrInvalid, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: body holds more than one JSON value", domain.ErrInvalid)
	}
	return nil
}

// maxDepth bounds the nesting checkKeys follows (and so the work a body
// can ask for).
const maxDepth = 64

// checkKeys walks raw's tokens and refuses an object with two keys that
// are equal ignoring case. Syntax errors are left to the decoder. It reads
// tokens with jsontext, which does not allocate per token as
// encoding/json's Token does; a batch body has thousands of keys.
// TestCheckKeysMatchesReference holds it to the encoding/json walk it
// replaced.
func checkKeys(raw []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// frames[d] is the open object or array at depth d; a frame is reused
	// by the next container at its depth.
	var frames []keyFrame
	depth := 0
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil // io.EOF, or a syntax error the decoder reports
		}
		switch kind := tok.Kind(); {
		case kind == '{' || kind == '[':
			if depth+1 > maxDepth {
				return fmt.Errorf("%w: JSON nested deeper than %d", domain.ErrInvalid, maxDepth)
			}
			if len(frames) <= depth {
				frames = append(frames, keyFrame{})
			}
			frames[depth].reset(kind == '{')
			depth++
		case kind == '}' || kind == ']':
			depth--
		case kind == '"' && depth > 0 && frames[depth-1].object:
			// A name or a value: the decoder's count of the object's
			// names and values read so far is odd just after a name.
			if _, n := dec.StackIndex(depth); n%2 == 1 {
				if err := frames[depth-1].add(tok.String()); err != nil {
					return err
				}
			}
		}
	}
}

// keyFrame is an open container of checkKeys: for an object, its keys so
// far, by their lower-case form.
type keyFrame struct {
	object bool
	folded []string          // lower-cased keys, while few
	keys   []string          // the keys as written, by folded's index
	many   map[string]string // lower-cased → as written, once there are many
}

// manyKeys is where a frame moves from scanning its keys to a map, so a
// huge object costs linear time.
const manyKeys = 16

func (f *keyFrame) reset(object bool) {
	f.object, f.folded, f.keys, f.many = object, f.folded[:0], f.keys[:0], nil
}

// add records k, refusing it when the object already has a key equal to
// it ignoring case.
func (f *keyFrame) add(k string) error {
	fold := strings.ToLower(k)
	prev, dup := "", false
	if f.many != nil {
		prev, dup = f.many[fold]
	} else if i := slices.Index(f.folded, fold); i >= 0 {
		prev, dup = f.keys[i], true
	}
	switch {
	case dup && prev == k:
		return fmt.Errorf("%w: duplicate key %q", domain.ErrInvalid, k)
	case dup:
		return fmt.Errorf("%w: keys %q and %q differ only in case", domain.ErrInvalid, prev, k)
	case f.many != nil:
		f.many[fold] = k
	case len(f.folded) < manyKeys:
		f.folded, f.keys = append(f.folded, fold), append(f.keys, k)
	default:
		f.many = make(map[string]string, 2*manyKeys)
		for i, fk := range f.folded {
			f.many[fk] = f.keys[i]
		}
		f.many[fold] = k
	}
	return nil
}
