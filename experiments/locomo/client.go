package locomo

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
)

// api calls cmem's public HTTP API through the project's Go client, as the
// admin or as the user whose token a call names.
type api struct {
	c     *httpclient.Client
	admin string
}

func newAPI(base, admin string) (*api, error) {
	c, err := httpclient.New(httpclient.Config{BaseURL: base, Token: admin, Timeout: 3 * time.Minute})
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	return &api{c: c, admin: admin}, nil
}

// do sends one call and decodes its answer into out. The client repeats
// a call refused with 429 (or 503 with Retry-After) after the wait the
// server names, with bounded back-off; an error names the call.
func (a *api) do(ctx context.Context, token, method, path string, body, out any) (int, error) {
	status, err := a.c.As(token).Do(ctx, method, path, body, out)
	if err != nil {
		err = fmt.Errorf("%s %s: %w", method, path, err)
	}
	return status, err
}

func (a *api) user(ctx context.Context, id string) (string, error) {
	var u httpclient.User
	_, err := a.do(ctx, a.admin, http.MethodPost, "/v1/users", map[string]string{"id": id, "role": "user"}, &u)
	return u.Token, err
}

func (a *api) agent(ctx context.Context, id, description string) error {
	_, err := a.do(ctx, a.admin, http.MethodPost, "/v1/agents", map[string]string{"id": id, "description": description}, nil)
	return err
}

func (a *api) grant(ctx context.Context, user, agent string) error {
	_, err := a.do(ctx, a.admin, http.MethodPut, "/v1/grants/user-agent/"+url.PathEscape(user)+"/"+url.PathEscape(agent), nil, nil)
	return err
}

func (a *api) write(ctx context.Context, token string, w httpclient.Write) (httpclient.Written, error) {
	ans, err := a.c.As(token).WriteFragment(ctx, w)
	if err != nil {
		err = fmt.Errorf("POST /v1/fragments: %w", err)
	}
	return ans, err
}

func (a *api) view(ctx context.Context, token string, req httpclient.ViewRequest) (httpclient.View, error) {
	var v httpclient.View
	_, err := a.do(ctx, token, http.MethodPost, "/v1/memory/view", req, &v)
	return v, err
}

// answer is the part of a query's answer the benchmark reads.
type answer struct {
	ID               string   `json:"id"`
	Status           string   `json:"status"`
	Answer           string   `json:"answer"`
	Error            string   `json:"error"`
	FragmentsRead    []string `json:"fragments_read"`
	FragmentsWritten []string `json:"fragments_written"`
	Steps            []struct {
		Agent         string `json:"agent"`
		ResourceCalls []any  `json:"resource_calls"`
	} `json:"steps"`
}

// ask sends a query and waits for its answer, polling while cmem says it
// is still pending (202).
func (a *api) ask(ctx context.Context, token, text string) (answer, error) {
	var ans answer
	status, err := a.do(ctx, token, http.MethodPost, "/v1/queries", map[string]any{"text": text}, &ans)
	for err == nil && (status == http.StatusAccepted || ans.Status == "pending") {
		status, err = a.do(ctx, token, http.MethodGet, "/v1/queries/"+url.PathEscape(ans.ID)+"?wait=60", nil, &ans)
	}
	return ans, err
}
