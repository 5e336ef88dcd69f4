package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"text/tabwriter"
	"time"
)

const policyUsage = `usage: cmem policy <set|list> [flags]

  set   -target T -kind K [-user U] [-agent A] [-config JSON] [-effective-at TIME]
        targets and kinds: write_private|write_shared: simple, redact, block, llm
                           read: simple, filter, llm
                           provenance: transitive, direct
  list  [-format table|json]

Both talk to a running cmem: -url (CMEM_URL, default http://127.0.0.1:8080)
and -token (CMEM_ADMIN_TOKEN, else $CMEM_DATA/admin.token).
`

// policyCmd runs `cmem policy set|list`.
func policyCmd(args []string, out io.Writer) error {
	c, err := newAdminCall("policy", policyUsage, args, out)
	if c == nil {
		return err
	}
	verb, fs := c.verb, c.fs
	target := fs.String("target", "", "write_private, write_shared, read or provenance")
	kind := fs.String("kind", "", "policy kind")
	user := fs.String("user", "", "scope: user id")
	agent := fs.String("agent", "", "scope: agent id")
	config := fs.String("config", "", "kind-specific JSON object")
	at := fs.String("effective-at", "", "RFC 3339 time the policy takes effect (default now)")
	format := fs.String("format", "table", "table or json (list)")
	if err := fs.Parse(c.args); err != nil {
		return err
	}
	tok, err := adminTokenFor(*c.token)
	if err != nil {
		return err
	}
	switch verb {
	case "set":
		body := map[string]any{"target": *target, "kind": *kind, "scope": map[string]string{"user": *user, "agent": *agent}}
		if *config != "" {
			body["config"] = json.RawMessage(*config)
		}
		if *at != "" {
			body["effective_at"] = *at
		}
		raw, err := callAPI(*c.base, tok, http.MethodPost, "/v1/policies", body, http.StatusCreated)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", raw)
		return err
	case "list":
		raw, err := callAPI(*c.base, tok, http.MethodGet, "/v1/policies", nil, http.StatusOK)
		if err != nil || *format == "json" {
			if err == nil {
				_, err = out.Write(raw)
			}
			return err
		}
		return printPolicies(raw, out)
	}
	return fmt.Errorf("unknown policy command %q\n\n%s", verb, policyUsage)
}

func printPolicies(raw []byte, out io.Writer) error {
	var list struct {
		Policies []struct {
			Target      string            `json:"target"`
			Scope       map[string]string `json:"scope"`
			Kind        string            `json:"kind"`
			Config      json.RawMessage   `json:"config"`
			EffectiveAt time.Time         `json:"effective_at"`
			Revision    uint64            `json:"revision"`
		} `json:"policies"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	_, _ = fmt.Fprintln(tw, "REVISION\tTARGET\tUSER\tAGENT\tKIND\tEFFECTIVE AT\tCONFIG")
	for _, p := range list.Policies {
		_, _ = fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Revision, p.Target, dash(p.Scope["user"]), dash(p.Scope["agent"]),
			p.Kind, p.EffectiveAt.Format(time.RFC3339), dash(string(p.Config)))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
