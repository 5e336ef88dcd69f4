package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// The read commands the console's endpoints answer; each is one GET.

// listCommand runs a GET of path whose query parameters are flags of the
// same names (underscores become dashes: -min-revision is min_revision).
func listCommand(name string, out io.Writer, args []string, path string, params ...string) error {
	usage := name
	for _, p := range params {
		usage += " [-" + strings.ReplaceAll(p, "_", "-") + " V]"
	}
	c := newCall(name, usage, out, true)
	vals := make([]*string, len(params))
	for i, p := range params {
		vals[i] = c.fs.String(strings.ReplaceAll(p, "_", "-"), "", "the "+p+" query parameter (see the API reference)")
	}
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	q := url.Values{}
	for i, p := range params {
		if *vals[i] != "" {
			q.Set(p, *vals[i])
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return c.do(http.MethodGet, path, nil, http.StatusOK)
}

// meCmd runs `cmem me`: who the token stands for.
func meCmd(args []string, out io.Writer) error {
	return listCommand("me", out, args, "/v1/me")
}

// accessGraphCmd runs `cmem access-graph`: every user's agents and their
// resources (an admin's; a user's own row), now, at a time or a revision.
func accessGraphCmd(args []string, out io.Writer) error {
	return listCommand("access-graph", out, args, "/v1/access", "at", "revision", "min_revision")
}

// grantChangesCmd runs `cmem grant-changes`: the grants and revokes
// between two revisions or times.
func grantChangesCmd(args []string, out io.Writer) error {
	return listCommand("grant-changes", out, args, "/v1/grants/changes", "from_revision", "to_revision", "min_revision", "from", "to", "user", "limit")
}

// usageCmd runs `cmem usage`: queries, fragments and reads per user.
func usageCmd(args []string, out io.Writer) error {
	return listCommand("usage", out, args, "/v1/usage", "user", "from", "to")
}

// digestCmd runs `cmem digest`: a hash of this process's access graph and
// fragment registry at a revision, to check that processes agree (admin).
func digestCmd(args []string, out io.Writer) error {
	return listCommand("digest", out, args, "/v1/debug/digest", "revision")
}

// eventsCmd runs `cmem events`: the log's events the caller may see, one
// JSON line each, as they happen (GET /v1/events/stream), until
// interrupted or -limit events were printed.
func eventsCmd(args []string, out io.Writer) error {
	c := newCall("events", "events [-after REVISION] [-limit N]", out, true)
	after := c.fs.Uint64("after", 0, "start after this revision (0: from now)")
	limit := c.fs.Int("limit", 0, "stop after this many events (0: never)")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	tok, err := c.tokenValue()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	u := strings.TrimSuffix(*c.base, "/") + "/v1/events/stream"
	if *after > 0 {
		u += "?after=" + strconv.FormatUint(*after, 10)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		return fmt.Errorf("%s answered %d: %s", u, resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if _, err := fmt.Fprintln(out, data); err != nil {
			return err
		}
		if n++; *limit > 0 && n >= *limit {
			return nil
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return sc.Err()
}
