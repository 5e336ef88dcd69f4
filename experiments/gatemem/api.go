package gatemem

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
)

// api is the public HTTP API of one cmem, called as its admin or as the
// user whose token a call names.
type api struct {
	c     *httpclient.Client
	admin string
}

func newAPI(base, admin string, timeout time.Duration) (*api, error) {
	c, err := httpclient.New(httpclient.Config{BaseURL: base, Token: admin, Timeout: timeout})
	if err != nil {
		return nil, fmt.Errorf("gatemem: %w", err)
	}
	return &api{c: c, admin: admin}, nil
}

// do sends body as token and decodes the answer into out.
func (a *api) do(ctx context.Context, token, method, path string, body, out any) (int, error) {
	status, err := a.c.As(token).Do(ctx, method, path, body, out)
	if err != nil {
		return status, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return status, nil
}

// answer is what the query API returns to its asker.
type answer struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Answer   string `json:"answer"`
	Outcome  string `json:"outcome"`
	Withheld string `json:"withheld"`
	Steps    []struct {
		Agent    string `json:"agent"`
		Subquery string `json:"subquery"`
		Response string `json:"response"`
		Withheld string `json:"withheld"`
	} `json:"steps"`
	FragmentsRead    []string `json:"fragments_read"`
	FragmentsWritten []string `json:"fragments_written"`
}

// ask submits text as token's user and waits for the answer.
func (a *api) ask(ctx context.Context, token, text string) (answer, error) {
	var ans answer
	status, err := a.do(ctx, token, http.MethodPost, "/v1/queries", map[string]any{"text": text}, &ans)
	if err != nil {
		return ans, err
	}
	for status == http.StatusAccepted {
		if err := ctx.Err(); err != nil {
			return ans, err
		}
		status, err = a.do(ctx, token, http.MethodGet, "/v1/queries/"+url.PathEscape(ans.ID)+"?wait=30", nil, &ans)
		if err != nil {
			return ans, err
		}
	}
	return ans, nil
}
