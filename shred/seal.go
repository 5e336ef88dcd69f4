package shred

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cmem/cmem/events"
)

// prefix starts every sealed field.
const prefix = "sealed:v1:"

// sealedMember is the one member of a sealed content object.
const sealedMember = "sealed"

// Keys is what a Sealer needs of a keyring.
type Keys interface {
	DataKey(ctx context.Context, s events.DataSubject) (string, []byte, error)
	Key(ctx context.Context, id string) ([]byte, error)
}

// Sealer seals the content fields of events for the log and opens them for
// readers. It is safe for concurrent use.
type Sealer struct {
	keys  Keys
	aeads aeadCache
}

// NewSealer returns a sealer over keys.
func NewSealer(keys Keys) *Sealer { return &Sealer{keys: keys} }

// Seal returns e with every content field sealed under its data subject's
// key. Events without content are returned as they are. It fails with
// ErrErased for content of an erased user.
func (s *Sealer) Seal(ctx context.Context, e events.Envelope) (events.Envelope, error) {
	c, err := contentOf(e, !events.HasContent(e.Type))
	if c == nil {
		return e, err
	}
	id, key, err := s.keys.DataKey(ctx, c.DataSubject())
	if err != nil {
		return e, err
	}
	aead, err := newAEAD(key)
	if err != nil {
		return e, err
	}
	for _, f := range c.ContentFields() {
		if *f != "" {
			*f = seal(aead, id, []byte(*f))
		}
	}
	if co, ok := c.(events.ContentObjects); ok {
		for _, o := range co.ContentObjects() {
			raw, err := json.Marshal(*o)
			if err != nil {
				return e, fmt.Errorf("shred: encode content object: %w", err)
			}
			*o = map[string]any{sealedMember: seal(aead, id, raw)}
		}
	}
	if e.Data, err = json.Marshal(c); err != nil {
		return e, fmt.Errorf("shred: encode %s: %w", e.Type, err)
	}
	return e, nil
}

// Open returns e with its sealed fields opened; a field whose key was
// destroyed reads as events.Erased. Errors other than a missing key (the
// key store is unreachable) are returned: the reader retries, it must not
// take content for erased when it is not.
func (s *Sealer) Open(ctx context.Context, e events.Envelope) (events.Envelope, error) {
	e, _, err := s.OpenPayload(ctx, e)
	return e, err
}

// contentOf decodes e's payload when it carries content; nil when skip is
// true or the payload has none.
func contentOf(e events.Envelope, skip bool) (events.Content, error) {
	if skip {
		return nil, nil
	}
	p, err := e.Decode()
	if err != nil && !errors.Is(err, events.ErrInvalid) {
		err = fmt.Errorf("%w: %w", events.ErrInvalid, err) // decoding is deterministic: it never will
	}
	if err != nil {
		return nil, err
	}
	c, _ := p.(events.Content)
	return c, nil
}

// open opens one field; a field that is not sealed is returned as it is
// (an event written with sealing off).
func (s *Sealer) open(ctx context.Context, field string) ([]byte, error) {
	rest, ok := strings.CutPrefix(field, prefix)
	if !ok {
		return []byte(field), nil
	}
	id, b64, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, fmt.Errorf("%w: shred: malformed sealed field", events.ErrInvalid)
	}
	// Asked on every field, never cached here: a key destroyed a moment
	// ago must not open anything more.
	key, err := s.keys.Key(ctx, id)
	if errors.Is(err, ErrNoKey) {
		s.aeads.forget(id)
	}
	if err != nil {
		return nil, err
	}
	raw, err := base64.RawStdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("%w: shred: sealed field: %w", events.ErrInvalid, err)
	}
	aead, err := s.aeads.get(id, key)
	if err != nil {
		return nil, err
	}
	if len(raw) < aead.NonceSize() {
		return nil, fmt.Errorf("%w: shred: sealed field too short", events.ErrInvalid)
	}
	// Opened in place: raw is this call's own, so the plaintext takes its
	// storage instead of a second allocation.
	sealed := raw[aead.NonceSize():]
	plain, err := aead.Open(sealed[:0], raw[:aead.NonceSize()], sealed, []byte(id))
	if err != nil {
		return nil, fmt.Errorf("%w: shred: open sealed field under %s: %w", events.ErrInvalid, id, err)
	}
	return plain, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("shred: cipher: %w", err)
	}
	return cipher.NewGCM(b)
}

func seal(aead cipher.AEAD, id string, plain []byte) string {
	buf := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	_, _ = rand.Read(buf)
	buf = aead.Seal(buf, buf, plain, []byte(id))
	return prefix + id + ":" + base64.RawStdEncoding.EncodeToString(buf)
}
