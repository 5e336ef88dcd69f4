package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/cmem/cmem/app"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decode reads exactly one JSON object into v, refusing unknown fields, so
// that a typo in a field name is an error and not a silent default.
func decode(r *http.Request, v any, strict bool) error {
	dec := json.NewDecoder(r.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("%w: body larger than %d bytes", app.ErrInvalid, tooBig.Limit)
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: empty body, want a JSON object", app.ErrInvalid)
		}
		return fmt.Errorf("%w: body: %w", app.ErrInvalid, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: body holds more than one JSON value", app.ErrInvalid)
	}
	return nil
}
