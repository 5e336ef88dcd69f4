package offline

import (
	"encoding/json"
	"sort"
)

// schema is the part of a tool's JSON Schema that argument building reads.
type schema struct {
	Properties map[string]struct {
		Type    any             `json:"type"`
		Default json.RawMessage `json:"default"`
	} `json:"properties"`
	Required []string `json:"required"`
}

func parseSchema(raw json.RawMessage) (schema, bool) {
	var s schema
	if len(raw) == 0 || string(raw) == "null" {
		return s, true
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, false
	}
	return s, true
}

func hasProperty(raw json.RawMessage, name string) bool {
	s, ok := parseSchema(raw)
	if !ok {
		return false
	}
	_, has := s.Properties[name]
	return has
}

// isString reports whether a property's type admits a string (no type
// admits anything).
func isString(t any) bool {
	switch v := t.(type) {
	case nil:
		return true
	case string:
		return v == "string"
	case []any:
		for _, x := range v {
			if x == "string" {
				return true
			}
		}
	}
	return false
}

// toolArgs builds a tool's arguments for a subquery from its schema:
//
//   - "expression": the arithmetic expression in the subquery, if any;
//   - "query", if a string property: the subquery;
//   - otherwise the first required string property (in "required"
//     order) other than "expression": the subquery; with none required,
//     the first such property by name, if nothing else was filled;
//   - every other required property: its schema "default".
//
// ok is false when the schema is unreadable or a required property stays
// unfilled: such a tool cannot be called without a model.
func toolArgs(raw json.RawMessage, subquery string) (json.RawMessage, bool) {
	s, ok := parseSchema(raw)
	if !ok {
		return nil, false
	}
	args := map[string]any{}
	if p, has := s.Properties["expression"]; has && isString(p.Type) {
		if e, found := arithmetic(subquery); found {
			args["expression"] = e
		}
	}
	if p, has := s.Properties["query"]; has && isString(p.Type) {
		args["query"] = subquery
	} else if name := textProperty(s, len(args) == 0); name != "" {
		args[name] = subquery
	}
	for _, r := range s.Required {
		if _, done := args[r]; done {
			continue
		}
		p, has := s.Properties[r]
		if !has || len(p.Default) == 0 {
			return nil, false
		}
		args[r] = p.Default
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, false
	}
	return b, true
}

// textProperty is the property that receives the subquery when there is
// no "query": the first required string one, else (when allowed) the
// first string one by name.
func textProperty(s schema, anyOptional bool) string {
	for _, r := range s.Required {
		if p, has := s.Properties[r]; has && r != "expression" && isString(p.Type) {
			return r
		}
	}
	if !anyOptional {
		return ""
	}
	names := make([]string, 0, len(s.Properties))
	for n, p := range s.Properties {
		if n != "expression" && isString(p.Type) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}
