package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

const auditUsage = `usage: cmem audit <question> [flags]

questions (answered by a running cmem over its HTTP API):
  visible     -user U -agent A [-at T]   fragments admissible to U through A at T (default now)
  reads       -fragment F                every read of F, admissible or not at its time
  deliveries  -query Q                   every delivery of query Q to its user, admissible or not
  violations  [-from T] [-to T]          every read or delivery that was not admissible when served
  metrics     [-bin 1h] [-from T] [-to T] per-query, per-user/bin and memory-reuse figures

T is RFC 3339 (2026-11-22T10:00:00Z). Every question takes
  -url     API base URL (CMEM_URL, default http://127.0.0.1:8080)
  -token   admin token (CMEM_ADMIN_TOKEN, else the file $CMEM_DATA/admin.token)
  -format  table, json or csv
`

// auditCmd runs `cmem audit <question>`, writing the answer to out.
func auditCmd(args []string, out io.Writer) error {
	c, err := newAdminCall("audit", auditUsage, args, out)
	if c == nil {
		return err
	}
	question, fs := c.verb, c.fs
	format := fs.String("format", "table", "table, json or csv")
	params := map[string]*string{}
	names := map[string][]string{
		"visible": {"user", "agent", "at"}, "reads": {"fragment"}, "deliveries": {"query"},
		"violations": {"from", "to"}, "metrics": {"bin", "from", "to"},
	}[question]
	if names == nil {
		return fmt.Errorf("unknown audit question %q\n\n%s", question, auditUsage)
	}
	for _, n := range names {
		params[n] = fs.String(n, "", n)
	}
	minRev := fs.Uint64("min-revision", 0, "wait until the trail holds this revision")
	if err := fs.Parse(c.args); err != nil {
		return err
	}
	if *format != "table" && *format != "json" && *format != "csv" {
		return fmt.Errorf("-format must be table, json or csv, got %q", *format)
	}
	q := url.Values{}
	for n, v := range params {
		if *v != "" {
			q.Set(n, *v)
		}
	}
	if *minRev > 0 {
		q.Set("min_revision", strconv.FormatUint(*minRev, 10))
	}
	tok, err := adminTokenFor(*c.token)
	if err != nil {
		return err
	}
	raw, err := callAPI(*c.base, tok, http.MethodGet, "/v1/audit/"+question+"?"+q.Encode(), nil, http.StatusOK)
	if err != nil {
		return err
	}
	if *format == "json" {
		_, err := out.Write(raw)
		return err
	}
	return render(question, raw, *format, out)
}

// table is one section of an answer: a header and its rows.
type table struct {
	title  string
	header []string
	rows   [][]string
}

func render(question string, raw []byte, format string, out io.Writer) error {
	tables, err := tablesOf(question, raw)
	if err != nil {
		return err
	}
	p := &printer{w: out}
	for i, t := range tables {
		if len(tables) > 1 {
			if i > 0 {
				p.printf("\n")
			}
			p.printf("# %s\n", t.title)
		}
		if format == "csv" {
			w := csv.NewWriter(p)
			_ = w.Write(t.header)
			_ = w.WriteAll(t.rows) // WriteAll flushes; the first error stays in w.Error
			if err := w.Error(); err != nil {
				return err
			}
			continue
		}
		tw := tabwriter.NewWriter(p, 0, 4, 2, ' ', 0)
		tp := &printer{w: tw}
		tp.printf("%s\n", strings.Join(t.header, "\t"))
		for _, r := range t.rows {
			tp.printf("%s\n", strings.Join(r, "\t"))
		}
		if tp.err != nil {
			return tp.err
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return p.err
}

// printer keeps the first write error, so a table is written without a
// check per line and fails as a whole.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	n, err := p.w.Write(b)
	p.err = err
	return n, err
}

func (p *printer) printf(format string, args ...any) { _, _ = fmt.Fprintf(p, format, args...) }

func tablesOf(question string, raw []byte) ([]table, error) {
	switch question {
	case "visible":
		var a audit.VisibleAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, err
		}
		t := table{title: "visible", header: []string{"fragment"}}
		for _, f := range a.Fragments {
			t.rows = append(t.rows, []string{f})
		}
		return []table{t}, nil
	case "reads", "deliveries", "violations":
		var rs []audit.Read
		if err := json.Unmarshal(raw, &rs); err != nil {
			return nil, err
		}
		// kind, query, label and detail come last, so the columns a read has
		// keep their places.
		t := table{title: question, header: []string{"revision", "at", "user", "agent", "fragment", "tier", "graph_revision",
			"admissible", "reason", "kind", "query", "label", "detail"}}
		for _, r := range rs {
			t.rows = append(t.rows, []string{u64(r.Revision), ts(r.At), r.User, r.Agent, r.Fragment, r.Tier,
				u64(r.GraphRevision), strconv.FormatBool(r.Admissible), r.Reason, r.Kind, r.Query, labelText(r.Label), r.Detail})
		}
		return []table{t}, nil
	case "metrics":
		return metricsTables(raw)
	}
	return nil, errors.New("unknown question " + question)
}

// labelText is a delivery's label in one cell: agents, then resources.
func labelText(l *events.Label) string {
	if l == nil {
		return ""
	}
	return "agents=" + strings.Join(l.Agents, ",") + " resources=" + strings.Join(l.Resources, ",")
}

func metricsTables(raw []byte) ([]table, error) {
	var m audit.Metrics
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	q := table{title: "queries", header: []string{"query", "user", "at", "agents", "resource_calls", "private_read", "shared_read", "written"}}
	for _, x := range m.Queries {
		q.rows = append(q.rows, []string{x.Query, x.User, ts(x.At), strings.Join(x.Agents, " "), u64(x.ResourceCalls),
			u64(x.PrivateFragmentsRead), u64(x.SharedFragmentsRead), u64(x.FragmentsWritten)})
	}
	b := table{title: "per user and " + m.Bin + " bin", header: []string{"bin", "user", "queries", "resource_calls", "memory_reads", "private_read", "shared_read", "written"}}
	for _, x := range m.Bins {
		b.rows = append(b.rows, []string{ts(x.Start), x.User, u64(x.Queries), u64(x.ResourceCalls), u64(x.MemoryReads),
			u64(x.PrivateFragmentsRead), u64(x.SharedFragmentsRead), u64(x.FragmentsWritten)})
	}
	r := table{title: fmt.Sprintf("memory reuse: %d cross-user reads of %d fragments", m.Reuse.CrossUserReads, m.Reuse.FragmentsReused),
		header: []string{"writer", "reader", "reads", "fragments"}}
	for _, x := range m.Reuse.Pairs {
		r.rows = append(r.rows, []string{x.Writer, x.Reader, u64(x.Reads), u64(x.Fragments)})
	}
	return []table{q, b, r}, nil
}

func u64(n uint64) string   { return strconv.FormatUint(n, 10) }
func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
