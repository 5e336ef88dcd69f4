package events

import "fmt"

// MaxIDLen is the longest entity id accepted.
const MaxIDLen = 128

// CheckID reports whether id may name a user, agent or resource. Ids become
// NATS subject tokens, so '.', '*', '>' and white space are excluded.
func CheckID(id string) error {
	if len(id) == 0 || len(id) > MaxIDLen {
		return fmt.Errorf("%w: %q", ErrInvalidID, id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("%w: %q", ErrInvalidID, id)
		}
	}
	return nil
}
