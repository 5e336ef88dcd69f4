package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/node"
)

const doctorUsage = `usage: cmem doctor [-url URL] [-data DIR] [-timeout 3s]

Tells what is running and what to fix: whether a cmem answers at URL (and
as whom the admin token signs in), the data directory and its tokens, the
NATS server (embedded on CMEM_NATS_PORT, or CMEM_NATS_URL), Weaviate and
ClickHouse when configured, and the ports. Each line is ok, warn or FAIL
with what to do; the exit status is 1 when any check failed.

flags:
`

// check is one line of the doctor's report.
type check struct {
	level, what, say string
}

// doctor is what the checks share.
type doctor struct {
	base, data string
	timeout    time.Duration
	checks     []check
}

func (d *doctor) add(level, what, format string, args ...any) {
	d.checks = append(d.checks, check{level, what, fmt.Sprintf(format, args...)})
}

// doctorCmd runs `cmem doctor`.
func doctorCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { _, _ = fmt.Fprint(out, doctorUsage); fs.PrintDefaults() }
	var ev envDefaults
	d := &doctor{}
	fs.StringVar(&d.base, "url", env("CMEM_URL", httpclient.DefaultURL), "the cmem to check (CMEM_URL)")
	fs.StringVar(&d.data, "data", env("CMEM_DATA", "./data"), "the data directory of the cmem on this machine (CMEM_DATA)")
	fs.DurationVar(&d.timeout, "timeout", ev.duration("CMEM_HEALTH_TIMEOUT", 3*time.Second), "how long each check waits (CMEM_HEALTH_TIMEOUT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := ev.err(); err != nil {
		return err
	}
	_, _ = fmt.Fprintf(out, "cmem doctor (cmem %s)\n", versionString())
	up := d.gateway()
	d.dataDir(up)
	d.nats(up)
	d.stores()
	failed := 0
	for _, c := range d.checks {
		if c.level == "FAIL" {
			failed++
		}
		say := strings.ReplaceAll(c.say, "\n", "\n"+strings.Repeat(" ", 17))
		_, _ = fmt.Fprintf(out, "  %-4s  %-8s %s\n", c.level, c.what, say)
	}
	if failed > 0 {
		return fmt.Errorf("doctor: %d check(s) failed", failed)
	}
	return nil
}

// gateway checks that a cmem answers at base, which version of the API,
// and whether the admin token is an admin of it. It reports whether it
// answered.
func (d *doctor) gateway() bool {
	ctx, cancel := context.WithTimeout(context.Background(), d.timeout)
	defer cancel()
	var health, doc struct {
		Status string `json:"status"`
		Info   struct {
			Version string `json:"version"`
		} `json:"info"`
	}
	if err := d.get(ctx, "/healthz", "", &health); err != nil {
		u, _ := url.Parse(d.base)
		switch {
		case u == nil || u.Host == "":
			d.add("FAIL", "gateway", "%q is not a URL: set CMEM_URL (or -url) to http://host:port", d.base)
		case isRefused(err):
			d.add("FAIL", "gateway", "nothing answers at %s: start cmem (make run, or cmem serve), or set CMEM_URL to where it runs", d.base)
		default:
			d.add("FAIL", "gateway", "%s does not answer as cmem does: %v (another program on that port? set CMEM_HTTP_ADDR for cmem and CMEM_URL for the CLI)", d.base, err)
		}
		return false
	}
	_ = d.get(ctx, "/openapi.json", "", &doc)
	d.add("ok", "gateway", "cmem answers at %s (API %s, status %s)", d.base, cmp.Or(doc.Info.Version, "unknown"), health.Status)
	tok := os.Getenv("CMEM_ADMIN_TOKEN")
	if tok == "" {
		raw, _ := os.ReadFile(filepath.Join(d.data, node.AdminTokenFile))
		tok = strings.TrimSpace(string(raw))
	}
	if tok == "" {
		d.add("warn", "token", "no admin token here (CMEM_ADMIN_TOKEN unset, no %s): the admin commands cannot run from this directory", filepath.Join(d.data, node.AdminTokenFile))
		return true
	}
	var me struct {
		ID    string `json:"id"`
		Admin bool   `json:"admin"`
	}
	switch err := d.get(ctx, "/v1/me", tok, &me); {
	case err != nil:
		d.add("FAIL", "token", "the admin token (CMEM_ADMIN_TOKEN or %s) is refused: %v — is this the data directory of the cmem at %s?", filepath.Join(d.data, node.AdminTokenFile), err, d.base)
	case !me.Admin:
		d.add("FAIL", "token", "the admin token signs in as %s, who is not an admin", me.ID)
	default:
		d.add("ok", "token", "the admin token signs in as an admin")
	}
	return true
}

// dataDir checks the data directory: its tokens, and files a failed
// command left behind (an empty token file).
func (d *doctor) dataDir(up bool) {
	entries, err := os.ReadDir(d.data)
	if err != nil {
		if up {
			d.add("warn", "data", "%s: %v — the API commands read the admin token there; run them where cmem's data directory is, or set CMEM_DATA or CMEM_ADMIN_TOKEN", d.data, err)
		} else {
			d.add("warn", "data", "%s does not exist yet: cmem serve creates it (CMEM_DATA)", d.data)
		}
		return
	}
	var tokens []string
	for _, e := range entries {
		name := e.Name()
		if !strings.Contains(name, ".token") || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err == nil && info.Size() == 0 {
			d.add("FAIL", "data", "%s is empty: a command that failed wrote it (a token is shown once); delete it, and use -out FILE, which writes only on success", filepath.Join(d.data, name))
			continue
		}
		tokens = append(tokens, name)
	}
	d.add("ok", "data", "%s (%s)", d.data, cmp.Or(strings.Join(tokens, ", "), "no token files"))
}

// nats checks the NATS server: CMEM_NATS_URL, else the embedded one on
// CMEM_NATS_PORT; its INFO line says its version and whether the port is
// NATS at all.
func (d *doctor) nats(up bool) {
	natsURL := env("CMEM_NATS_URL", "")
	embedded := natsURL == ""
	if embedded {
		natsURL = "nats://127.0.0.1:" + env("CMEM_NATS_PORT", "4222")
	}
	u, err := url.Parse(natsURL)
	if err != nil || u.Host == "" {
		d.add("FAIL", "nats", "CMEM_NATS_URL %q is not a NATS URL (nats://host:4222)", natsURL)
		return
	}
	info, err := natsInfo(u.Host, d.timeout)
	switch {
	case err == nil:
		d.add("ok", "nats", "NATS %s answers at %s (JetStream %v)", info.Version, u.Host, info.JetStream)
		if embedded {
			reader := filepath.Join(d.data, "nats-reader.token")
			d.add("ok", "bus", "read the log: nats -s nats://%s --token \"$(cat %s)\" \\\n"+
				"  --inbox-prefix _CMEM_READER sub --stream CMEM_EVENTS --all 'cmem.events.>'\n"+
				"(the reader token's replies come on _CMEM_READER: without --inbox-prefix, nats\n"+
				"ends in \"context deadline exceeded\")", u.Host, reader)
		}
	case isRefused(err) && embedded && !up:
		d.add("warn", "nats", "nothing on %s: the embedded NATS server runs inside cmem serve (port CMEM_NATS_PORT, default 4222)", u.Host)
	case isRefused(err) && embedded:
		d.add("warn", "nats", "nothing on %s, though cmem answers: it runs its embedded NATS on another port (CMEM_NATS_PORT, -nats-port) or against CMEM_NATS_URL", u.Host)
	case isRefused(err):
		d.add("FAIL", "nats", "nothing answers at %s (CMEM_NATS_URL): start the NATS cluster or fix the URL", u.Host)
	default:
		d.add("FAIL", "nats", "%s is not a NATS server (%v): another program has the port; give cmem another with CMEM_NATS_PORT", u.Host, err)
	}
}

// stores checks Weaviate and ClickHouse when they are configured.
func (d *doctor) stores() {
	if w := env("CMEM_WEAVIATE_URL", ""); w != "" {
		ctx, cancel := context.WithTimeout(context.Background(), d.timeout)
		defer cancel()
		if err := d.getURL(ctx, strings.TrimSuffix(w, "/")+"/v1/.well-known/ready"); err != nil {
			d.add("FAIL", "weaviate", "CMEM_WEAVIATE_URL %s is not ready: %v — start Weaviate, or unset it for the in-process view", w, err)
		} else {
			d.add("ok", "weaviate", "%s is ready", w)
		}
	} else {
		d.add("ok", "vectors", "in process (set CMEM_WEAVIATE_URL for Weaviate)")
	}
	if dsn := env("CMEM_CLICKHOUSE_DSN", ""); dsn != "" {
		u, err := url.Parse(dsn)
		if err != nil || u.Host == "" {
			d.add("FAIL", "audit", "CMEM_CLICKHOUSE_DSN %q is not clickhouse://host:9000/db", dsn)
		} else if c, err := net.DialTimeout("tcp", u.Host, d.timeout); err != nil {
			d.add("FAIL", "audit", "ClickHouse at %s does not answer: %v — start it, or unset CMEM_CLICKHOUSE_DSN for the in-process trail", u.Host, err)
		} else {
			_ = c.Close()
			d.add("ok", "audit", "ClickHouse at %s accepts connections", u.Host)
		}
	} else {
		d.add("ok", "audit", "in process (set CMEM_CLICKHOUSE_DSN for ClickHouse)")
	}
	if o := env("CMEM_OPENAI_BASE_URL", ""); o != "" {
		d.add("ok", "model", "OpenAI-compatible at %s (OPENAI_API_KEY %s)", o, map[bool]string{true: "set", false: "unset"}[os.Getenv("OPENAI_API_KEY") != ""])
	} else {
		d.add("ok", "model", "the offline provider and embedder (set CMEM_OPENAI_BASE_URL for a model server)")
	}
}

// get GETs path of the gateway as token (empty: none) and decodes a 2xx
// answer into out.
func (d *doctor) get(ctx context.Context, path, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(d.base, "/")+path, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %d: %.200s", path, resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s answered %.60q, not cmem's JSON", path, raw)
	}
	return nil
}

// getURL GETs u and wants a 2xx.
func (d *doctor) getURL(ctx context.Context, u string) error {
	var discard json.RawMessage
	base := d.base
	d.base = ""
	defer func() { d.base = base }()
	if err := d.get(ctx, u, "", &discard); err != nil && !strings.Contains(err.Error(), "not cmem's JSON") {
		return err
	}
	return nil
}

// serverInfo is what of a NATS server's INFO line the doctor shows.
type serverInfo struct {
	Version   string `json:"version"`
	JetStream bool   `json:"jetstream"`
}

// natsInfo reads the INFO line a NATS server sends on connect.
func natsInfo(host string, timeout time.Duration) (serverInfo, error) {
	c, err := net.DialTimeout("tcp", host, timeout)
	if err != nil {
		return serverInfo{}, err
	}
	defer func() { _ = c.Close() }()
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return serverInfo{}, fmt.Errorf("no INFO line: %w", err)
	}
	raw, ok := strings.CutPrefix(strings.TrimSpace(line), "INFO ")
	var info serverInfo
	if !ok || json.Unmarshal([]byte(raw), &info) != nil {
		return serverInfo{}, fmt.Errorf("it sent %.40q, not a NATS INFO line", line)
	}
	return info, nil
}

// isRefused reports whether err is a refused connection: nothing listens.
func isRefused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
