package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
)

// client calls one cmem node's public HTTP API through the project's Go
// client, as the admin or as the user whose token a call names.
type client struct {
	api   *httpclient.Client
	admin string
}

// newClient returns a client of the cmem at base; a call may run up to 5
// minutes (a query of a scenario waits for its answer).
func newClient(base, admin string) (*client, error) {
	api, err := httpclient.New(httpclient.Config{BaseURL: base, Token: admin, Timeout: 5 * time.Minute})
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return &client{api: api, admin: admin}, nil
}

// do sends body as JSON with token and decodes the answer into out (when
// non-nil); a status other than want is an error carrying the API's
// message.
func (c *client) do(ctx context.Context, method, path, token string, body, out any, want int) error {
	status, err := c.api.As(token).Do(ctx, method, path, body, out)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if status != want {
		return fmt.Errorf("%s %s: status %d, want %d", method, path, status, want)
	}
	return nil
}

func (c *client) user(ctx context.Context, id string) (string, error) {
	var r struct {
		Token string `json:"token"`
	}
	err := c.do(ctx, "POST", "/v1/users", c.admin, map[string]string{"id": id, "role": "user"}, &r, http.StatusCreated)
	return r.Token, err
}

func (c *client) agent(ctx context.Context, id, description string) error {
	return c.do(ctx, "POST", "/v1/agents", c.admin, map[string]string{"id": id, "description": description}, nil, http.StatusCreated)
}

// policy sets a policy scoped to one agent.
func (c *client) policy(ctx context.Context, agent, target, kind string) error {
	body := map[string]any{"target": target, "kind": kind, "scope": map[string]string{"agent": agent}}
	return c.do(ctx, "POST", "/v1/policies", c.admin, body, nil, http.StatusCreated)
}

// doc is one document of a knowledge base.
type doc struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

func (c *client) knowledgeBase(ctx context.Context, id, description string, docs []doc) error {
	return c.do(ctx, "POST", "/v1/resources", c.admin,
		map[string]any{"id": id, "kind": "knowledge_base", "description": description, "documents": docs}, nil, http.StatusCreated)
}

func (c *client) computation(ctx context.Context, id, description string) error {
	return c.do(ctx, "POST", "/v1/resources", c.admin,
		map[string]any{"id": id, "kind": "computation", "description": description}, nil, http.StatusCreated)
}

func (c *client) grantUA(ctx context.Context, user, agent string, on bool) error {
	return c.grant(ctx, "/v1/grants/user-agent/"+user+"/"+agent, on)
}

func (c *client) grantAR(ctx context.Context, agent, resource string, on bool) error {
	return c.grant(ctx, "/v1/grants/agent-resource/"+agent+"/"+resource, on)
}

func (c *client) grant(ctx context.Context, path string, on bool) error {
	method := "PUT"
	if !on {
		method = "DELETE"
	}
	return c.do(ctx, method, path, c.admin, nil, nil, http.StatusOK)
}

// answer is the part of a query's answer the driver reads.
type answer struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Answer   string `json:"answer"`
	Revision uint64 `json:"revision"`
	// Steps is one per round the query ran (withheld or not).
	Steps []json.RawMessage `json:"steps"`
}

func (c *client) query(ctx context.Context, token, text string) (answer, error) {
	var a answer
	err := c.do(ctx, "POST", "/v1/queries", token, map[string]any{"text": text}, &a, http.StatusOK)
	return a, err
}

// access is GET /v1/access/{user}: the agents and their resources now.
func (c *client) access(ctx context.Context, user string) (map[string][]string, error) {
	var r struct {
		Agents []struct {
			ID        string   `json:"id"`
			Resources []string `json:"resources"`
		} `json:"agents"`
	}
	if err := c.do(ctx, "GET", "/v1/access/"+url.PathEscape(user), c.admin, nil, &r, http.StatusOK); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, a := range r.Agents {
		out[a.ID] = a.Resources
	}
	return out, nil
}

// queryMetrics is one row of /v1/audit/metrics' "queries".
type queryMetrics struct {
	Query                string   `json:"query"`
	User                 string   `json:"user"`
	Agents               []string `json:"agents"`
	ResourceCalls        int      `json:"resource_calls"`
	PrivateFragmentsRead int      `json:"private_fragments_read"`
	SharedFragmentsRead  int      `json:"shared_fragments_read"`
	FragmentsWritten     int      `json:"fragments_written"`
}

// metrics returns the audit trail's per-query figures once it holds rev.
func (c *client) metrics(ctx context.Context, rev uint64) (map[string]queryMetrics, error) {
	var r struct {
		Queries []queryMetrics `json:"queries"`
	}
	path := "/v1/audit/metrics?min_revision=" + strconv.FormatUint(rev, 10)
	if err := c.do(ctx, "GET", path, c.admin, nil, &r, http.StatusOK); err != nil {
		return nil, err
	}
	out := make(map[string]queryMetrics, len(r.Queries))
	for _, q := range r.Queries {
		out[q.Query] = q
	}
	return out, nil
}

// violations counts the audited reads since from that were not admissible.
func (c *client) violations(ctx context.Context, rev uint64, from time.Time) (int, error) {
	var rows []json.RawMessage
	path := "/v1/audit/violations?min_revision=" + strconv.FormatUint(rev, 10) +
		"&from=" + url.QueryEscape(from.Add(-time.Second).Format(time.RFC3339Nano))
	if err := c.do(ctx, "GET", path, c.admin, nil, &rows, http.StatusOK); err != nil {
		return 0, err
	}
	return len(rows), nil
}
