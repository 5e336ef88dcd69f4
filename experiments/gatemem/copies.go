package gatemem

import (
	"context"
	"net/http"
	"net/url"
)

// copyText is the text of a fragment an answer read that no turn's answer
// showed: a copy cmem wrote beside a turn (its summary, class read or
// withheld read), asked for as the asker through the agents the answer's
// steps used (GET /v1/fragments/{id}/history), so that the checkpoint's
// prompt context holds what was placed before the model — leaks in a
// copy count as any other. "" when none of them reads it.
func (r *episodeRun) copyText(ctx context.Context, token, id string, agents []string) string {
	for _, ag := range agents {
		var h struct {
			Versions []struct {
				ID    string `json:"id"`
				Value string `json:"value"`
			} `json:"versions"`
		}
		path := "/v1/fragments/" + url.PathEscape(id) + "/history?agent=" + url.QueryEscape(ag)
		if _, err := r.api.do(ctx, token, http.MethodGet, path, nil, &h); err != nil {
			continue // not readable through this agent
		}
		for _, v := range h.Versions {
			if v.ID == id {
				return v.Value
			}
		}
	}
	return ""
}
