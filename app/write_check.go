package app

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cmem/cmem/domain"
)

// idLike matches a key that is only an identifier: a UUID, a hex digest or
// a number, possibly cut by separators ("3f2a-91c0", "12.5", "0042"), or a
// short code of at most two letters and numbers ("D1:3", "A12"). Such a
// key says nothing about the fragment, and the view indexes the key beside
// the value, so it would only add noise.
var (
	hexOrNumber = regexp.MustCompile(`^[0-9a-fA-F]+([-_:./#][0-9a-fA-F]+)*$`)
	shortCode   = regexp.MustCompile(`^[A-Za-z]{0,2}[0-9]+([-_:./#][0-9]+)*$`)
)

// keyIsID reports whether key is only an identifier (see idLike): a hex
// string counts only if it holds a digit, so words such as "cafe" or
// "facade" are keys.
func keyIsID(key string) bool {
	k := strings.TrimSpace(key)
	if shortCode.MatchString(k) {
		return true
	}
	return hexOrNumber.MatchString(k) && strings.ContainsAny(k, "0123456789")
}

// checkContent refuses a write whose key is only an id or whose value is
// empty, with a message that says what to send instead.
func checkContent(key, value string) error {
	if keyIsID(key) {
		return fmt.Errorf("%w: key %q is only an id; a key says what the fragment is about (e.g. \"lyon restaurants\"), and the id is given by the store", domain.ErrInvalid, strings.TrimSpace(key))
	}
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("%w: value must not be empty: it is what memory answers from", domain.ErrInvalid)
	}
	return nil
}
