package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

const grantUsage = `usage: cmem grant  user-agent USER AGENT        [-expires-at RFC3339 | -ttl 8h]
       cmem grant  agent-resource AGENT RESOURCE [-expires-at RFC3339 | -ttl 8h]
       cmem revoke user-agent USER AGENT
       cmem revoke agent-resource AGENT RESOURCE
`

// grantCmd runs `cmem grant` (granted) or `cmem revoke`.
func grantCmd(granted bool) func([]string, io.Writer) error {
	return func(args []string, out io.Writer) error {
		kind, args, err := subcommand(args, grantUsage, out)
		if err != nil {
			return err
		}
		if kind != "user-agent" && kind != "agent-resource" {
			return fmt.Errorf("grant kind must be user-agent or agent-resource, got %q\n\n%s", kind, grantUsage)
		}
		name := "revoke " + kind
		if granted {
			name = "grant " + kind
		}
		c := newCall(name, name+" FROM TO", out, false)
		var expiresAt *string
		var ttl *time.Duration
		if granted {
			expiresAt = c.fs.String("expires-at", "", "RFC 3339 time the grant ends (default never)")
			ttl = c.fs.Duration("ttl", 0, "how long the grant lasts from now (default forever)")
		}
		pos, err := c.parse(args, 2)
		if err != nil {
			return err
		}
		path := "/v1/grants/" + kind + "/" + url.PathEscape(pos[0]) + "/" + url.PathEscape(pos[1])
		if !granted {
			return c.do(http.MethodDelete, path, nil, http.StatusOK)
		}
		var body map[string]string
		switch {
		case *expiresAt != "" && *ttl != 0:
			return fmt.Errorf("give -expires-at or -ttl, not both")
		case *expiresAt != "":
			if _, err := time.Parse(time.RFC3339Nano, *expiresAt); err != nil {
				return fmt.Errorf("-expires-at must be RFC 3339: %w", err)
			}
			body = map[string]string{"expires_at": *expiresAt}
		case *ttl != 0:
			body = map[string]string{"ttl": ttl.String()}
		}
		if body == nil {
			return c.do(http.MethodPut, path, nil, http.StatusOK)
		}
		return c.do(http.MethodPut, path, body, http.StatusOK)
	}
}

// accessCmd runs `cmem access USER`.
func accessCmd(args []string, out io.Writer) error {
	c := newCall("access", "access USER [-at RFC3339 | -revision N] [-min-revision N]", out, true)
	at := c.fs.String("at", "", "RFC 3339 time to ask about (default now)")
	rev := c.fs.Uint64("revision", 0, "log revision to ask about")
	minRev := c.fs.Uint64("min-revision", 0, "wait until the answer includes this revision")
	pos, err := c.parse(args, 1)
	if err != nil {
		return err
	}
	q := url.Values{}
	if *at != "" {
		q.Set("at", *at)
	}
	if *rev > 0 {
		q.Set("revision", strconv.FormatUint(*rev, 10))
	}
	if *minRev > 0 {
		q.Set("min_revision", strconv.FormatUint(*minRev, 10))
	}
	return c.do(http.MethodGet, "/v1/access/"+url.PathEscape(pos[0])+"?"+q.Encode(), nil, http.StatusOK)
}
