package httpclient

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Ask is a query (POST /v1/queries).
type Ask struct {
	Text string `json:"text"`
	// AsOf asks for the facts valid at that time (valid time); zero is
	// now. The answer is then not remembered.
	AsOf time.Time `json:"as_of,omitzero"`
}

// Answer is a query's state as the server renders it (the fields a
// client acts on; GET /v1/queries/{id} holds more).
type Answer struct {
	ID               string     `json:"id"`
	Status           string     `json:"status"` // pending, answered or failed
	Answer           string     `json:"answer"`
	Error            string     `json:"error,omitempty"`
	Outcome          string     `json:"outcome,omitempty"`
	FragmentsRead    []string   `json:"fragments_read"`
	FragmentsWritten []string   `json:"fragments_written"`
	AsOf             *time.Time `json:"as_of,omitempty"`
	Revision         uint64     `json:"revision"`
}

// Ask submits a query and waits for its answer as long as the server
// waits (a query still running then comes back pending: poll Query).
func (c *Client) Ask(ctx context.Context, q Ask) (Answer, error) {
	var a Answer
	_, err := c.Do(ctx, http.MethodPost, "/v1/queries", q, &a)
	return a, err
}

// Query reads a query's state (GET /v1/queries/{id}).
func (c *Client) Query(ctx context.Context, id string) (Answer, error) {
	var a Answer
	_, err := c.Do(ctx, http.MethodGet, "/v1/queries/"+url.PathEscape(id), nil, &a)
	return a, err
}
