package shred

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/cmem/cmem/events"
)

// OpenPayload is Open that also returns the payload it opened, so that a
// reader does not decode the opened data a second time. The payload is
// returned only when it is certainly what decoding the returned Data
// gives: the data it was decoded from was encoded from a payload by Seal,
// and every opened field and object is valid UTF-8 (encoding/json would
// replace invalid bytes, and then a decode of Data would differ).
// TestOpenedPayloadIsTheDecodedData holds that for every content type.
// Otherwise, and for events with nothing sealed, the payload is nil.
func (s *Sealer) OpenPayload(ctx context.Context, e events.Envelope) (events.Envelope, events.Payload, error) {
	c, err := contentOf(e, !events.HasContent(e.Type) || !bytes.Contains(e.Data, []byte(prefix)))
	if c == nil {
		return e, nil, err
	}
	erased, exact, objects := false, true, false
	var buf [8]openedField
	opened := buf[:0]
	for _, f := range c.ContentFields() {
		plain, err := s.open(ctx, *f)
		if errors.Is(err, ErrNoKey) {
			*f, erased = events.Erased, true
			continue
		}
		if err != nil {
			return e, nil, err
		}
		if strings.HasPrefix(*f, prefix) {
			opened = append(opened, openedField{sealed: *f, plain: plain})
		}
		// plain is open's own and never written again: the field keeps it
		// without a copy (a 256-d embedding is 1.4 KB).
		*f, exact = unsafe.String(unsafe.SliceData(plain), len(plain)), exact && utf8.Valid(plain)
	}
	if co, ok := c.(events.ContentObjects); ok {
		for _, o := range co.ContentObjects() {
			sealed, _ := (*o)[sealedMember].(string)
			if len(*o) != 1 || !strings.HasPrefix(sealed, prefix) {
				continue
			}
			plain, err := s.open(ctx, sealed)
			if errors.Is(err, ErrNoKey) {
				*o, erased = map[string]any{}, true
				continue
			}
			if err != nil {
				return e, nil, err
			}
			var m map[string]any
			if err := json.Unmarshal(plain, &m); err != nil {
				return e, nil, fmt.Errorf("%w: shred: decode content object: %w", events.ErrInvalid, err)
			}
			*o, exact, objects = m, exact && utf8.Valid(plain), true
		}
	}
	if ce, ok := c.(events.ContentErased); ok && erased {
		ce.ContentErased()
	}
	// The opened data: the stored data with each sealed string replaced
	// where that is certain to be what re-encoding gives (see splice); an
	// erasure also drops members, and an opened object is re-encoded.
	data, spliced := []byte(nil), false
	if !erased && !objects {
		data, spliced = splice(e.Data, opened)
	}
	if !spliced {
		if data, err = json.Marshal(c); err != nil {
			return e, nil, fmt.Errorf("%w: shred: encode %s: %w", events.ErrInvalid, e.Type, err)
		}
	}
	e.Data = data
	if !exact {
		return e, nil, nil
	}
	return e, c, nil
}
