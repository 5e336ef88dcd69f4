package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
)

// batchBody is POST /v1/batch: items, each an object whose "op" names the
// command and whose other fields are that command's body. A batch is one
// request against the caller's rate limit "batches" (the registrations
// rate), however many items it holds: MaxBatch bounds those.
type batchBody struct {
	Items []json.RawMessage `json:"items"`
}

// batchItemBody holds every field an item may carry; which are allowed
// depends on its op (batchFields).
type batchItemBody struct {
	Op string `json:"op"`
	// register_user, register_agent
	ID           string `json:"id"`
	Role         string `json:"role"`
	Description  string `json:"description"`
	SystemPrompt string `json:"system_prompt"`
	// grant, revoke
	Edge string `json:"edge"`
	From string `json:"from"`
	To   string `json:"to"`
	grantBody
	// write_fragment
	fragmentBody
}

// batchFields are the fields each op takes besides "op"; register_resource
// takes any (its kind-specific configuration) and is not listed.
var batchFields = map[string][]string{
	app.OpRegisterUser:  {"id", "role"},
	app.OpRegisterAgent: {"id", "description", "system_prompt"},
	app.OpGrant:         {"edge", "from", "to", "expires_at", "ttl"},
	app.OpRevoke:        {"edge", "from", "to"},
	app.OpWriteFragment: {"agent", "resources", "key", "value", "tier", "derived_from", "observed_at"},
}

func (s *Server) batch(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var body batchBody
	if err := decode(r, &body, true); err != nil {
		s.fail(w, r, err)
		return
	}
	items := make([]app.BatchItem, len(body.Items))
	for i, raw := range body.Items {
		it, err := batchItem(raw)
		if err != nil {
			s.fail(w, r, &app.ItemError{Index: i, Err: err})
			return
		}
		items[i] = it
	}
	ans, err := s.app.Batch(r.Context(), by, items)
	s.answer(w, r, http.StatusOK, ans, err)
}

// batchItem decodes one item, refusing fields its op does not take. The
// body's keys were checked for duplicates as a whole (decode). The item is
// read once, member by member, and each allowed member is set from its
// value: a thousand items decoded twice with reflection were most of what
// the endpoint spent before the use case.
func batchItem(raw json.RawMessage) (app.BatchItem, error) {
	members, ok := itemMembers(raw)
	if !ok {
		return app.BatchItem{}, fmt.Errorf("%w: an item must be a JSON object", domain.ErrInvalid)
	}
	var b batchItemBody
	opAt := slices.IndexFunc(members, func(m itemMember) bool { return m.name == "op" })
	var opRaw json.RawMessage
	if opAt >= 0 {
		opRaw = members[opAt].value
		members = slices.Delete(members, opAt, opAt+1)
	}
	if err := setString(opRaw, &b.Op); err != nil {
		return app.BatchItem{}, fmt.Errorf("%w: op must be a string", domain.ErrInvalid)
	}
	if b.Op == app.OpRegisterResource {
		fields := make(map[string]json.RawMessage, len(members))
		for _, m := range members {
			fields[m.name] = m.value
		}
		return resourceItem(fields)
	}
	allowed, ok := batchFields[b.Op]
	if !ok {
		return app.BatchItem{Op: b.Op}, nil // Batch names the ops there are
	}
	for _, m := range members {
		if !slices.Contains(allowed, m.name) {
			return app.BatchItem{}, fmt.Errorf("%w: %s takes no field %q", domain.ErrInvalid, b.Op, m.name)
		}
	}
	for _, m := range members {
		if err := b.set(m.name, m.value); err != nil {
			return app.BatchItem{}, fmt.Errorf("%w: %s: %w", domain.ErrInvalid, m.name, err)
		}
	}
	wr, err := b.request()
	if err != nil {
		return app.BatchItem{}, err
	}
	it := app.BatchItem{Op: b.Op, ID: b.ID, Role: b.Role, Description: b.Description, SystemPrompt: b.SystemPrompt,
		Write: wr}
	if b.Op == app.OpGrant || b.Op == app.OpRevoke {
		switch b.Edge {
		case "user-agent", "agent-resource":
		default:
			return app.BatchItem{}, fmt.Errorf("%w: edge must be \"user-agent\" or \"agent-resource\", got %q", domain.ErrInvalid, b.Edge)
		}
		it.Edge = app.Edge{UserAgent: b.Edge == "user-agent", From: b.From, To: b.To}
		term, err := b.term()
		if err != nil {
			return app.BatchItem{}, err
		}
		it.Term = term
	}
	return it, nil
}

// resourceItem is register_resource: id, kind and description, every other
// field the kind-specific configuration (as POST /v1/resources).
func resourceItem(fields map[string]json.RawMessage) (app.BatchItem, error) {
	it := app.BatchItem{Op: app.OpRegisterResource}
	for name, dst := range map[string]*string{"id": &it.ID, "kind": &it.Kind, "description": &it.Description} {
		if raw, ok := fields[name]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return app.BatchItem{}, fmt.Errorf("%w: %s must be a string", domain.ErrInvalid, name)
			}
			delete(fields, name)
		}
	}
	it.Config = fields
	return it, nil
}
