package gateway

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// grantBody is the optional body of PUT /v1/grants/...: at most one of an
// absolute expiry and a time to live.
type grantBody struct {
	ExpiresAt *string `json:"expires_at"`
	TTL       *string `json:"ttl"`
}

// grantTerm reads the optional grant body. No body (or an empty one) is a
// grant until revoked, as before expiries existed.
func grantTerm(r *http.Request) (app.Term, error) {
	var term app.Term
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return term, fmt.Errorf("%w: body larger than %d bytes", domain.ErrInvalid, tooBig.Limit)
		}
		return term, fmt.Errorf("%w: body: %w", domain.ErrInvalid, err)
	}
	if strings.TrimSpace(string(raw)) == "" {
		return term, nil
	}
	var b grantBody
	r.Body = io.NopCloser(strings.NewReader(string(raw)))
	if err := decode(r, &b, true); err != nil {
		return term, err
	}
	return b.term()
}

// term parses the body's expiry or time to live.
func (b grantBody) term() (app.Term, error) {
	var term app.Term
	if b.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339Nano, *b.ExpiresAt)
		if err != nil {
			return term, fmt.Errorf("%w: expires_at must be RFC 3339 (e.g. 2026-11-22T18:00:00Z): %w", domain.ErrInvalid, err)
		}
		term.ExpiresAt = &t
	}
	if b.TTL != nil {
		d, err := time.ParseDuration(*b.TTL)
		if err != nil {
			return term, fmt.Errorf("%w: ttl must be a Go duration such as \"8h\" or \"90m\": %w", domain.ErrInvalid, err)
		}
		term.TTL = &d
	}
	return term, nil
}
