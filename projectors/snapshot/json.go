package snapshot

import (
	"encoding/json"
	"fmt"
)

// EncodeJSON is the coding of a section's state: JSON, which keeps an
// empty list apart from a missing one as the events do. what names the
// section in the error.
func EncodeJSON(what string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s: encode snapshot: %w", what, err)
	}
	return b, nil
}

// DecodeJSON decodes what EncodeJSON made.
func DecodeJSON(what string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: decode snapshot: %w", what, err)
	}
	return nil
}
