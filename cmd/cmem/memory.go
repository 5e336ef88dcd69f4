package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

const fragmentUsage = `usage: cmem fragment write -agent A -key K -value V [-tier private|shared] [-resources r1,r2] [-derived-from f1,f2] [-observed-at T]
       cmem fragment delete ID   delete a fragment (its owner or an admin); it leaves every view
       cmem fragment history ID -agent A [-min-revision N]   the versions of ID's fact you may read
`

// fragmentCmd runs `cmem fragment write|delete`.
func fragmentCmd(args []string, out io.Writer) error {
	verb, args, err := subcommand(args, fragmentUsage, out)
	if err != nil {
		return err
	}
	switch verb {
	case "write":
	case "delete":
		return pathCommand("fragment delete", "fragment delete ID", out, args, http.MethodDelete, "/v1/fragments/%s", http.StatusOK)
	case "history":
		return fragmentHistoryCmd(args, out)
	default:
		return fmt.Errorf("unknown fragment command %q\n\n%s", verb, fragmentUsage)
	}
	c := newCall("fragment write", "fragment write -agent A -key K -value V [-tier private|shared] [-resources r1,r2] [-derived-from f1,f2] [-observed-at T]", out, true)
	agent := c.fs.String("agent", "", "the agent writing (must be one you may use)")
	key := c.fs.String("key", "", "the fragment's key")
	value := c.fs.String("value", "", "the fragment's text")
	tier := c.fs.String("tier", "private", "private or shared")
	res := c.fs.String("resources", "", "comma-separated resources the fragment derives from")
	from := c.fs.String("derived-from", "", "comma-separated fragment ids the fragment derives from")
	observed := c.fs.String("observed-at", "", "when the fact was observed or is about: RFC 3339 or YYYY-MM-DD (default: now)")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	body := map[string]any{"agent": *agent, "key": *key, "value": *value, "tier": *tier, "resources": orEmpty(list(*res))}
	if d := list(*from); d != nil {
		body["derived_from"] = d
	}
	if *observed != "" {
		body["observed_at"] = *observed
	}
	return c.do(http.MethodPost, "/v1/fragments", body, http.StatusCreated)
}

const memoryUsage = `usage: cmem memory view -agent A -query Q [-k-user 10] [-k-cross 10] [-min-revision N] [-min-score S] [-as-of T]
       cmem memory graph -agent A -query Q [-min-revision N]
`

// memoryCmd runs `cmem memory view|graph`.
func memoryCmd(args []string, out io.Writer) error {
	verb, args, err := subcommand(args, memoryUsage, out)
	if err != nil {
		return err
	}
	switch verb {
	case "view":
	case "graph":
		return memoryGraphCmd(args, out)
	default:
		return fmt.Errorf("unknown memory command %q\n\n%s", verb, memoryUsage)
	}
	c := newCall("memory view", "memory view -agent A -query Q [-k-user 10] [-k-cross 10] [-min-revision N] [-min-score S] [-as-of T]", out, true)
	agent := c.fs.String("agent", "", "the agent whose view to read")
	query := c.fs.String("query", "", "the text to rank fragments by")
	kUser := c.fs.Int("k-user", 10, "private fragments to return (max 100)")
	kCross := c.fs.Int("k-cross", 10, "shared fragments to return (max 100)")
	minRev := c.fs.Uint64("min-revision", 0, "wait until the view includes this revision")
	minScore := c.fs.String("min-score", "", "relevance floor, -1..1 (default: the embedder's)")
	asOf := c.fs.String("as-of", "", "facts valid at this time: RFC 3339 or YYYY-MM-DD (default: the current version of each)")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	body := map[string]any{"agent": *agent, "query": *query, "k_user": *kUser, "k_cross": *kCross, "min_revision": *minRev}
	if *minScore != "" {
		f, err := strconv.ParseFloat(*minScore, 32)
		if err != nil {
			return fmt.Errorf("-min-score must be a number: %w", err)
		}
		body["min_score"] = f
	}
	if *asOf != "" {
		body["as_of"] = *asOf
	}
	return c.do(http.MethodPost, "/v1/memory/view", body, http.StatusOK)
}

// memoryGraphCmd runs `cmem memory graph`: the caller's graph memory.
func memoryGraphCmd(args []string, out io.Writer) error {
	c := newCall("memory graph", "memory graph -agent A -query Q [-min-revision N]", out, true)
	agent := c.fs.String("agent", "", "the agent whose graph memory to read")
	query := c.fs.String("query", "", "the text to find similar past queries by")
	minRev := c.fs.Uint64("min-revision", 0, "wait until graph memory includes this revision")
	if _, err := c.parse(args, 0); err != nil {
		return err
	}
	return c.do(http.MethodPost, "/v1/memory/graph", map[string]any{"agent": *agent, "query": *query, "min_revision": *minRev}, http.StatusOK)
}

const queryUsage = `usage: cmem query ask TEXT [-no-wait] [-as-of T]  submit a query and wait for its answer (or its id with -no-wait)
       cmem query get ID [-wait SECONDS]  a query's state, waiting up to SECONDS for the answer
       cmem query list [-user U] [-from T] [-to T] [-limit N]  queries, newest first (yours; an admin's: anyone's)
`

// queryCmd runs `cmem query ask|get`.
func queryCmd(args []string, out io.Writer) error {
	verb, args, err := subcommand(args, queryUsage, out)
	if err != nil {
		return err
	}
	switch verb {
	case "ask":
		c := newCall("query ask", "query ask TEXT [-no-wait] [-as-of T]", out, true)
		noWait := c.fs.Bool("no-wait", false, "answer the query's id at once")
		asOf := c.fs.String("as-of", "", "ask about the facts valid at this time: RFC 3339 or YYYY-MM-DD (default: now)")
		pos, err := c.parse(args, -1)
		if err != nil {
			return err
		}
		if len(pos) == 0 {
			return fmt.Errorf("query ask: the question is missing")
		}
		body := map[string]any{"text": strings.Join(pos, " ")}
		if *noWait {
			body["wait"] = false
		}
		if *asOf != "" {
			body["as_of"] = *asOf
		}
		return c.doAccepting(http.MethodPost, "/v1/queries", body)
	case "get":
		c := newCall("query get", "query get ID [-wait SECONDS]", out, true)
		wait := c.fs.Float64("wait", 0, "seconds to wait for the answer")
		pos, err := c.parse(args, 1)
		if err != nil {
			return err
		}
		path := "/v1/queries/" + url.PathEscape(pos[0])
		if *wait > 0 {
			path += "?wait=" + strconv.FormatFloat(*wait, 'f', -1, 64)
		}
		return c.doAccepting(http.MethodGet, path, nil)
	case "list":
		return listCommand("query list", out, args, "/v1/queries", "user", "from", "to", "limit")
	}
	return fmt.Errorf("unknown query command %q\n\n%s", verb, queryUsage)
}

// doAccepting is do for calls that answer 200 when done and 202 while the
// query runs; both are printed.
func (c *call) doAccepting(method, path string, body any) error {
	raw, err := c.raw(method, path, body, http.StatusOK, http.StatusAccepted)
	if err != nil {
		return err
	}
	return c.print(raw)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
