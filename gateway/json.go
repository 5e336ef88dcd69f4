package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

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
// are equal ignoring case. Syntax errors are left to the decoder.
func checkKeys(raw []byte) error {
	type frame struct {
		object, key bool // in an object; the next token is a key
		seen        map[string]string
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF, or a syntax error the decoder reports
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
			top.key = true // this token is a value; a key follows
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
