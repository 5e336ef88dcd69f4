package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// fragmentHistoryCmd runs `cmem fragment history ID -agent A`: the versions
// of ID's fact the caller may read through A now (GET
// /v1/fragments/{id}/history); a fragment the caller may not read is "not
// found", as one that does not exist.
func fragmentHistoryCmd(args []string, out io.Writer) error {
	c := newCall("fragment history", "fragment history ID -agent A [-min-revision N]", out, true)
	agent := c.fs.String("agent", "", "the agent to read through (must be one you may use)")
	minRev := c.fs.Uint64("min-revision", 0, "wait until the registry includes this revision")
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	q := url.Values{"agent": {*agent}}
	if *minRev > 0 {
		q.Set("min_revision", fmt.Sprint(*minRev))
	}
	return c.do(http.MethodGet, "/v1/fragments/"+url.PathEscape(pos[0])+"/history?"+q.Encode(), nil, http.StatusOK)
}
