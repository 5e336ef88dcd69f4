package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// itemMember is one member of a batch item: its name and its value as
// written (a slice of the body).
type itemMember struct {
	name  string
	value json.RawMessage
}

// itemMembers reads the members of the JSON object raw, or reports that
// raw is not one. raw is valid JSON (the body decoder checked it).
func itemMembers(raw []byte) ([]itemMember, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	members := make([]itemMember, 0, 8)
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // before the next read voids tok
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		end := int(dec.InputOffset())
		members = append(members, itemMember{name: name, value: raw[end-len(v) : end]})
	}
	return members, true
}

// set sets the field of b named name (one batchFields allows) from its
// JSON value, as encoding/json would: null leaves it unset.
func (b *batchItemBody) set(name string, v json.RawMessage) error {
	switch name {
	case "id":
		return setString(v, &b.ID)
	case "role":
		return setString(v, &b.Role)
	case "description":
		return setString(v, &b.Description)
	case "system_prompt":
		return setString(v, &b.SystemPrompt)
	case "edge":
		return setString(v, &b.Edge)
	case "from":
		return setString(v, &b.From)
	case "to":
		return setString(v, &b.To)
	case "agent":
		return setString(v, &b.Agent)
	case "key":
		return setString(v, &b.Key)
	case "value":
		return setString(v, &b.Value)
	case "tier":
		return setString(v, &b.Tier)
	case "observed_at":
		return setString(v, &b.ObservedAt)
	case "expires_at":
		return json.Unmarshal(v, &b.ExpiresAt)
	case "ttl":
		return json.Unmarshal(v, &b.TTL)
	case "resources":
		return json.Unmarshal(v, &b.Resources)
	case "derived_from":
		return json.Unmarshal(v, &b.DerivedFrom)
	}
	return fmt.Errorf("no field %q", name)
}

// setString decodes a JSON string into dst as encoding/json does; a
// string with nothing to unescape or mend is copied without it.
func setString(v json.RawMessage, dst *string) error {
	if len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v[1:len(v)-1]) {
		*dst = string(v[1 : len(v)-1])
		return nil
	}
	return json.Unmarshal(v, dst)
}
