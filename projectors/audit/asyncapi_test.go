package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/subjects"
)

// samples holds one payload of every event type, to derive its subject.
var samples = map[string]events.Payload{
	events.TypeUserRegistered:       &events.UserRegistered{ID: "u"},
	events.TypeUserTokenRotated:     &events.UserTokenRotated{User: "u"},
	events.TypeUserTokenRevoked:     &events.UserTokenRevoked{User: "u"},
	events.TypeUserDeactivated:      &events.UserDeactivated{User: "u"},
	events.TypeUserReactivated:      &events.UserReactivated{User: "u"},
	events.TypeUserErased:           &events.UserErased{User: "u"},
	events.TypeFragmentDeleted:      &events.FragmentDeleted{ID: "f", User: "u"},
	events.TypeAgentRegistered:      &events.AgentRegistered{ID: "a"},
	events.TypeResourceRegistered:   &events.ResourceRegistered{ID: "r"},
	events.TypeUserAgentGranted:     &events.UserAgentGranted{User: "u", Agent: "a"},
	events.TypeUserAgentRevoked:     &events.UserAgentRevoked{User: "u", Agent: "a"},
	events.TypeAgentResourceGranted: &events.AgentResourceGranted{Agent: "a", Resource: "r"},
	events.TypeAgentResourceRevoked: &events.AgentResourceRevoked{Agent: "a", Resource: "r"},
	events.TypeUserAgentExpired:     &events.UserAgentExpired{User: "u", Agent: "a", GrantRevision: 1},
	events.TypeAgentResourceExpired: &events.AgentResourceExpired{Agent: "a", Resource: "r", GrantRevision: 1},
	events.TypeFragmentWritten:      &events.FragmentWritten{ID: "f", User: "u"},
	events.TypeFragmentRejected:     &events.FragmentRejected{User: "u", Agent: "a"},
	events.TypeFragmentSuperseded:   &events.FragmentSuperseded{Old: "o", New: "f", User: "u"},
	events.TypeValuesErased:         &events.ValuesErased{Scope: "s", User: "u"},
	events.TypePolicySet:            &events.PolicySet{Target: "read", Scope: events.PolicyScope{User: "u", Agent: "a"}},
	events.TypeMemoryRead:           &events.MemoryRead{User: "u", Agent: "a"},
	events.TypeGraphRead:            &events.GraphRead{User: "u", Agent: "a"},
	events.TypeQuerySubmitted:       &events.QuerySubmitted{ID: "q", User: "u"},
	events.TypeAgentSelected:        &events.AgentSelected{QueryID: "q", User: "u"},
	events.TypeResourceCalled:       &events.ResourceCalled{QueryID: "q", User: "u"},
	events.TypeAgentResponded:       &events.AgentResponded{QueryID: "q", User: "u"},
	events.TypeQueryAnswered:        &events.QueryAnswered{QueryID: "q", User: "u"},
	events.TypeQueryFailed:          &events.QueryFailed{QueryID: "q", User: "u"},
	events.TypeQueryDelivered:       &events.QueryDelivered{QueryID: "q", User: "u"},
	events.TypeQueriesListed:        &events.QueriesListed{Reader: "u"},
	events.TypeGovernanceDecided:    &events.GovernanceDecided{Speaker: "u", Kind: "grant", Agents: []string{}},
}

// TestAsyncAPIDocumentsEveryEvent holds schemas/asyncapi.yaml to the code:
// every registered type has a message whose data is its current schema
// file, the subject it is stored on matches a channel listing that
// message, and every file it references exists.
func TestAsyncAPIDocumentsEveryEvent(t *testing.T) {
	dir := filepath.Join("..", "..", "schemas")
	raw, err := os.ReadFile(filepath.Join(dir, "asyncapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseYAML(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	if v := get(doc, "asyncapi"); v != "2.6.0" {
		t.Fatalf("asyncapi version %v", v)
	}
	walkRefs(doc, func(ref string) {
		if strings.HasPrefix(ref, "#") {
			if get(doc, strings.Split(strings.TrimPrefix(ref, "#/"), "/")...) == nil {
				t.Errorf("dangling reference %s", ref)
			}
			return
		}
		if _, err := os.Stat(filepath.Join(dir, ref)); err != nil {
			t.Errorf("referenced schema %s: %v", ref, err)
		}
	})
	types := events.Types()
	if len(types) != len(samples) {
		t.Fatalf("%d registered types, %d samples here: give every new type a sample", len(types), len(samples))
	}
	messages, _ := get(doc, "components", "messages").(map[string]any)
	channels, _ := get(doc, "channels").(map[string]any)
	for _, typ := range types {
		p, ok := samples[typ]
		if !ok {
			t.Errorf("no sample of %s", typ)
			continue
		}
		e, err := events.New(events.Meta{Source: "t", Actor: "a", Time: time.Now()}, p)
		if err != nil {
			t.Fatal(err)
		}
		key := ""
		for k, m := range messages {
			if get(m, "name") == typ {
				key = k
			}
		}
		if key == "" {
			t.Errorf("%s has no message", typ)
			continue
		}
		wantSchema := "./" + strings.TrimPrefix(e.DataSchema, "https://cmem.dev/schemas/")
		if got := get(messages[key], "payload", "allOf", "1", "properties", "data", "$ref"); got != wantSchema {
			t.Errorf("%s: data schema %v, want %s", typ, got, wantSchema)
		}
		if got := get(messages[key], "payload", "allOf", "1", "properties", "schemaversion", "const"); got != fmt.Sprint(e.SchemaVersion) {
			t.Errorf("%s: schemaversion %v, want %d", typ, got, e.SchemaVersion)
		}
		subject := subjects.Event(e.Subject)
		var matched []string
		for pattern, ch := range channels {
			if channelRegexp(pattern).MatchString(subject) && slices.Contains(channelMessages(ch), "#/components/messages/"+key) {
				matched = append(matched, pattern)
			}
		}
		if len(matched) != 1 {
			t.Errorf("%s on %s matches channels %v, want exactly one listing message %s", typ, subject, matched, key)
		}
	}
}

func channelRegexp(pattern string) *regexp.Regexp {
	quoted := regexp.QuoteMeta(pattern)
	return regexp.MustCompile("^" + regexp.MustCompile(`\\\{[a-z]+\\\}`).ReplaceAllString(quoted, `[^.]+`) + "$")
}

func channelMessages(ch any) []string {
	var out []string
	if ref, ok := get(ch, "subscribe", "message", "$ref").(string); ok {
		out = append(out, ref)
	}
	list, _ := get(ch, "subscribe", "message", "oneOf").([]any)
	for _, m := range list {
		if ref, ok := get(m, "$ref").(string); ok {
			out = append(out, ref)
		}
	}
	return out
}

// get walks maps by key and lists by decimal index.
func get(v any, path ...string) any {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscan(p, &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func walkRefs(v any, fn func(string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && k == "$ref" {
				fn(s)
			}
			walkRefs(c, fn)
		}
	case []any:
		for _, c := range x {
			walkRefs(c, fn)
		}
	}
}

// parseYAML reads the block-style subset of YAML the document is written
// in: mappings, sequences, plain and quoted scalars, and folded (>-) or
// literal (|) blocks. There is no YAML module in go.mod, and the subset
// keeps the document plain for every other reader too.
func parseYAML(src string) (any, error) {
	type line struct {
		indent int
		text   string
	}
	var lines []line
	for _, l := range strings.Split(src, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		lines = append(lines, line{len(l) - len(trimmed), strings.TrimRight(trimmed, " ")})
	}
	var block func(i, indent int) (any, int, error)
	block = func(i, indent int) (any, int, error) {
		if i >= len(lines) || lines[i].indent < indent {
			return nil, i, nil
		}
		if strings.HasPrefix(lines[i].text, "- ") {
			var list []any
			for i < len(lines) && lines[i].indent == indent && strings.HasPrefix(lines[i].text, "- ") {
				item := lines[i].text[2:]
				if k, _, ok := strings.Cut(item, ":"); ok && !strings.ContainsAny(k, " '") {
					lines[i] = line{indent + 2, item} // "- k: v" opens a mapping two columns in
					v, next, err := block(i, indent+2)
					if err != nil {
						return nil, 0, err
					}
					list, i = append(list, v), next
					continue
				}
				list, i = append(list, scalar(item)), i+1
			}
			return list, i, nil
		}
		m := map[string]any{}
		for i < len(lines) && lines[i].indent == indent {
			k, v, ok := strings.Cut(lines[i].text, ":")
			if !ok {
				return nil, 0, fmt.Errorf("line %q: want key: value", lines[i].text)
			}
			v = strings.TrimSpace(v)
			i++
			switch {
			case v == ">-" || v == "|" || v == ">":
				var parts []string
				for i < len(lines) && lines[i].indent > indent {
					parts, i = append(parts, lines[i].text), i+1
				}
				m[k] = strings.Join(parts, " ")
			case v != "":
				m[k] = scalar(v)
			default:
				child, next, err := block(i, lines[min(i, len(lines)-1)].indent)
				if err != nil {
					return nil, 0, err
				}
				if next == i {
					child = nil
				}
				m[k], i = child, next
			}
		}
		return m, i, nil
	}
	v, i, err := block(0, 0)
	if err == nil && i != len(lines) {
		err = fmt.Errorf("unparsed from line %q", lines[i].text)
	}
	return v, err
}

func scalar(s string) string {
	if len(s) >= 2 && (s[0] == '\'' && s[len(s)-1] == '\'' || s[0] == '"' && s[len(s)-1] == '"') {
		return s[1 : len(s)-1]
	}
	return s
}
