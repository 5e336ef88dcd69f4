package clustertest

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ServiceToken is the NATS service token of a Serve process: workers
// connect to its embedded server with it.
const ServiceToken = "cluster-test-service-token-0123456789"

var natsLine = regexp.MustCompile(`cmem serve: http://\S*  nats: nats://(\S+)`)

// Serve starts `cmem serve` (gateway, pipeline workers and an embedded
// NATS server on a free port) with env and flags args, and returns it with
// the NATS URL, service token included, that Worker processes join.
func Serve(t testing.TB, env []string, args ...string) (p *Proc, natsURL string) {
	t.Helper()
	Binary(t)
	env = append([]string{"CMEM_ADMIN_TOKEN=" + AdminToken, "CMEM_NATS_SERVICE_TOKEN=" + ServiceToken,
		"CMEM_LOG_LEVEL=warn"}, env...)
	c := &Cluster{}
	p = c.add(t, "serve", fmt.Sprintf("127.0.0.1:%d", freePorts(t, 1)[0]), env, append([]string{"-nats-port", "-1"}, args...), 5*time.Minute)
	m := natsLine.FindStringSubmatch(p.Log())
	if m == nil {
		t.Fatalf("cmem serve printed no NATS URL:\n%s", p.Log())
	}
	return p, "nats://" + ServiceToken + "@" + m[1]
}

// Worker starts one `cmem worker` process against natsURL.
func Worker(t testing.TB, natsURL string, env []string, args ...string) *Proc {
	t.Helper()
	c := &Cluster{}
	return c.add(t, "worker", "", append([]string{"CMEM_NATS_URL=" + natsURL, "CMEM_LOG_LEVEL=warn"}, env...), args, 5*time.Minute)
}

// CPU is the CPU time (user and system) the running process has used so
// far, from /proc; 0 when unknown.
func (p *Proc) CPU() time.Duration {
	p.mu.Lock()
	cmd := p.cmd
	p.mu.Unlock()
	if cmd == nil {
		return 0
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the parenthesised command name; utime and stime are
	// the 14th and 15th fields of the whole line, in clock ticks (100/s
	// on Linux).
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
