package httpclient

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/cmem/cmem/domain"
)

// The typed calls: the ones most programs make, with their answers as Go
// values. Everything else goes through Do.

// User is a registered user. Token is its bearer token, given only in the
// answer to its registration: cmem keeps its hash alone.
type User struct {
	ID       string `json:"id"`
	Token    string `json:"token"`
	Revision uint64 `json:"revision"`
}

// RegisterUser registers a user with role "user" or "admin" (POST
// /v1/users); only the admin may.
func (c *Client) RegisterUser(ctx context.Context, id, role string) (User, error) {
	var u User
	_, err := c.Do(ctx, http.MethodPost, "/v1/users", map[string]string{"id": id, "role": role}, &u)
	return u, err
}

// Write is a fragment to remember, written by the caller through Agent,
// one of the agents the caller may use.
type Write struct {
	Agent string `json:"agent"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// Tier is "private" (empty means private) or "shared".
	Tier string `json:"tier"`
	// Resources are what the fragment derives from; Agent must be allowed
	// each of them.
	Resources []string `json:"resources"`
	// DerivedFrom lists ids of fragments it derives from.
	DerivedFrom []string `json:"derived_from,omitempty"`
	// ObservedAt is when the fact was observed or is about (a
	// conversation's session date); zero means the write time. It must lie
	// between 1900 and a day after the server's now.
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// Written is what a write stored (a write policy may split or redact it)
// and the revision of its last event.
type Written struct {
	Fragments []domain.Fragment `json:"fragments"`
	Revision  uint64            `json:"revision"`
}

// WriteFragment writes w (POST /v1/fragments).
func (c *Client) WriteFragment(ctx context.Context, w Write) (Written, error) {
	if w.Tier == "" {
		w.Tier = "private"
	}
	if w.Resources == nil {
		w.Resources = []string{}
	}
	var ans Written
	_, err := c.Do(ctx, http.MethodPost, "/v1/fragments", w, &ans)
	return ans, err
}

// ViewRequest asks what Agent may recall for the caller, ranked by Query.
type ViewRequest struct {
	Agent string `json:"agent"`
	Query string `json:"query"`
	// KUser and KCross are how many private and shared fragments to
	// return; 0 is the API's default, 10.
	KUser  int `json:"k_user,omitempty"`
	KCross int `json:"k_cross,omitempty"`
	// MinRevision makes the view wait until it includes this revision
	// (a write's Written.Revision: read your writes).
	MinRevision uint64 `json:"min_revision,omitempty"`
	// MinScore is the relevance floor, -1..1; nil is the embedder's.
	MinScore *float32 `json:"min_score,omitempty"`
	// AsOf asks for the facts valid at that time; zero is now.
	AsOf time.Time `json:"as_of,omitzero"`
}

// View is a memory view: the caller's private fragments and the shared
// ones its permissions admit, each tier ranked. Revision is where the read
// was recorded; GraphRevision the access graph it was checked against.
type View struct {
	Revision      uint64            `json:"revision"`
	GraphRevision uint64            `json:"graph_revision"`
	Private       []domain.Fragment `json:"private"`
	Shared        []domain.Fragment `json:"shared"`
}

// MemoryView reads a memory view (POST /v1/memory/view).
func (c *Client) MemoryView(ctx context.Context, req ViewRequest) (View, error) {
	var v View
	_, err := c.Do(ctx, http.MethodPost, "/v1/memory/view", req, &v)
	return v, err
}

// History reads the versions of fragment id's fact that the caller may
// read through agent (GET /v1/fragments/{id}/history); a fragment the
// caller may not read is not found (ErrNotFound), as one that does not
// exist.
func (c *Client) History(ctx context.Context, id, agent string) (domain.History, error) {
	var h domain.History
	_, err := c.Do(ctx, http.MethodGet, "/v1/fragments/"+url.PathEscape(id)+"/history?agent="+url.QueryEscape(agent), nil, &h)
	return h, err
}
