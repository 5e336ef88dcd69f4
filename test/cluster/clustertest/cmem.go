package clustertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/childproc"
)

// AdminToken is the bootstrap administrator's token every process of a
// harness cluster shares.
const AdminToken = "cluster-test-admin-token-0123456789"

var (
	buildOnce sync.Once
	binPath   string
	errBuild  error
)

// Binary builds cmd/cmem once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cmem-cluster-bin")
		if err != nil {
			errBuild = err
			return
		}
		binPath = filepath.Join(dir, "cmem")
		root, err := moduleRoot()
		if err != nil {
			errBuild = err
			return
		}
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/cmem")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			errBuild = fmt.Errorf("build cmem: %w\n%s", err, out)
		}
	})
	if errBuild != nil {
		t.Fatal(errBuild)
	}
	return binPath
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// readyLine is the line a role prints when it is ready.
var readyLine = regexp.MustCompile(`cmem (\w+): http://(\S*)  nats: `)

// Proc is one cmem process (gateway or worker) of the cluster. It keeps
// its HTTP port and data directory across a Kill and Start.
type Proc struct {
	Role string
	// Addr is host:port of the HTTP API (a worker's: its metrics address,
	// which also serves the digest).
	Addr string
	Env  []string
	Args []string

	mu  sync.Mutex
	cmd *exec.Cmd
	log *strings.Builder
	// ready and exited belong to the last Launch: the ready line was
	// printed; the process's output ended (it exited).
	ready, exited chan struct{}
	begin         time.Time
	// Started is how long the last Start took until the ready line.
	Started time.Duration
}

// Base is the process's API base URL.
func (p *Proc) Base() string { return "http://" + p.Addr }

// Log is everything the process printed so far.
func (p *Proc) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Start runs the process and waits (up to within) for its ready line. A
// process that exits first, or is not ready in time, fails t with its
// output. t is the calling test (a subtest restarting a process passes its
// own: FailNow must run on the test's goroutine).
func (p *Proc) Start(t testing.TB, within time.Duration) {
	t.Helper()
	p.Launch(t)
	p.WaitReady(t, within)
}

// Launch runs the process and returns at once; WaitReady waits for its
// ready line.
func (p *Proc) Launch(t testing.TB) {
	t.Helper()
	args := append([]string{p.Role}, p.Args...)
	if p.Addr != "" {
		flag := "-http"
		if p.Role == "worker" {
			flag = "-metrics-addr"
		}
		args = append(args, flag, p.Addr)
	}
	cmd := exec.Command(Binary(t), args...)
	// Wait never blocks on the output pipes for long after the process is
	// gone (a kill must not hang the test).
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = append(os.Environ(), p.Env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	if err := childproc.Start(cmd); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.cmd = cmd
	p.log = &strings.Builder{}
	p.mu.Unlock()
	ready, exited := make(chan struct{}, 1), make(chan struct{})
	p.mu.Lock()
	p.ready, p.exited, p.begin = ready, exited, begin
	p.mu.Unlock()
	go func() {
		defer close(exited)
		lines(pipe, p.log, &p.mu, func(s string) {
			if m := readyLine.FindStringSubmatch(s); m != nil && m[1] == p.Role {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
		})
	}()
}

// Exited reports whether the process launched last has exited.
func (p *Proc) Exited() bool {
	p.mu.Lock()
	exited := p.exited
	p.mu.Unlock()
	select {
	case <-exited:
		return true
	default:
		return false
	}
}

// IsReady reports whether the process launched last printed its ready
// line.
func (p *Proc) IsReady() bool {
	p.mu.Lock()
	ready := p.ready
	p.mu.Unlock()
	select {
	case <-ready:
		select { // keep it for WaitReady
		case ready <- struct{}{}:
		default:
		}
		return true
	default:
		return false
	}
}

// WaitReady waits (up to within) for the ready line of the process
// launched last; one that exits first, or is not ready in time, fails t
// with its output.
func (p *Proc) WaitReady(t testing.TB, within time.Duration) {
	t.Helper()
	p.mu.Lock()
	ready, exited, begin := p.ready, p.exited, p.begin
	p.mu.Unlock()
	select {
	case <-ready:
		p.Started = time.Since(begin)
	case <-exited:
		p.Kill()
		t.Fatalf("cmem %s %s exited before it was ready:\n%s", p.Role, p.Addr, p.Log())
	case <-time.After(within):
		reason := p.stall(exited)
		t.Fatalf("cmem %s %s did not become ready within %s (%s):\n%s", p.Role, p.Addr, within, reason, p.Log())
	}
}

// Pid is the process id of the running process (0: not running).
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Running reports whether the process was started and not killed since.
func (p *Proc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// Kill stops the process with SIGKILL (no-op when it is not running).
func (p *Proc) Kill() {
	p.mu.Lock()
	cmd := p.cmd
	p.cmd = nil
	p.mu.Unlock()
	if cmd != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}

// Options shape a Cluster.
type Options struct {
	Gateways, Workers int
	// Env is added to every cmem process (e.g. CMEM_CLICKHOUSE_DSN).
	Env []string
	// GatewayEnv is added to the gateways only (e.g. CMEM_CLICKHOUSE_DSN:
	// the audit trail is served by gateways).
	GatewayEnv []string
	// GatewayArgs and WorkerArgs are flags for every gateway and worker
	// (e.g. -query-retain, -ack-wait).
	GatewayArgs, WorkerArgs []string
	// StartWithin bounds each process's first start (default 3 minutes: a
	// stall fails the test with the process's output instead of hanging).
	StartWithin time.Duration
}

// Cluster is a NATS cluster with cmem gateways and workers on it.
type Cluster struct {
	NATS     *NATS
	Gateways []*Proc
	Workers  []*Proc
}

// Start starts three NATS nodes, then the gateways and workers against all
// three with streams at R3; everything stops when the test ends.
func Start(t testing.TB, o Options) *Cluster {
	t.Helper()
	Binary(t)
	c := &Cluster{NATS: StartNATS(t)}
	env := append([]string{"CMEM_NATS_URL=" + c.NATS.URLs(), "CMEM_NATS_REPLICAS=3", "CMEM_ADMIN_TOKEN=" + AdminToken,
		"CMEM_LOG_LEVEL=warn"}, o.Env...)
	within := o.StartWithin
	if within == 0 {
		within = 3 * time.Minute
	}
	// Workers serve /metrics, /healthz and /v1/debug/digest on their
	// metrics address: the checks compare every process's projections.
	ports := freePorts(t, o.Gateways+o.Workers)
	for i := range o.Gateways {
		c.Gateways = append(c.Gateways, c.add(t, "gateway", fmt.Sprintf("127.0.0.1:%d", ports[i]), append(slices.Clone(env), o.GatewayEnv...), o.GatewayArgs, within))
	}
	for i := range o.Workers {
		c.Workers = append(c.Workers, c.add(t, "worker", fmt.Sprintf("127.0.0.1:%d", ports[o.Gateways+i]), env, o.WorkerArgs, within))
	}
	return c
}

// Procs is every gateway and worker.
func (c *Cluster) Procs() []*Proc { return append(slices.Clone(c.Gateways), c.Workers...) }

func (c *Cluster) add(t testing.TB, role, addr string, env, args []string, within time.Duration) *Proc {
	p := &Proc{Role: role, Addr: addr, Env: append(slices.Clone(env), "CMEM_DATA="+t.TempDir()), Args: args,
		log: &strings.Builder{}}
	p.Start(t, within)
	t.Cleanup(p.Kill)
	return p
}

// NewProc is a cmem process of role (gateway or worker) on nats with
// streams at R3, on a free port and a data directory of its own, not
// started yet (Launch or Start it); it is killed when the test ends.
func NewProc(t testing.TB, nats *NATS, role string, args ...string) *Proc {
	t.Helper()
	Binary(t)
	env := []string{"CMEM_NATS_URL=" + nats.URLs(), "CMEM_NATS_REPLICAS=3", "CMEM_ADMIN_TOKEN=" + AdminToken,
		"CMEM_LOG_LEVEL=warn", "CMEM_DATA=" + t.TempDir()}
	p := &Proc{Role: role, Addr: fmt.Sprintf("127.0.0.1:%d", freePorts(t, 1)[0]), Env: env, Args: args, log: &strings.Builder{}}
	t.Cleanup(p.Kill)
	return p
}

// RSS is the process's resident memory in bytes (Linux /proc), 0 when it
// is not running or unknown.
func (p *Proc) RSS() int64 {
	p.mu.Lock()
	cmd := p.cmd
	p.mu.Unlock()
	if cmd == nil {
		return 0
	}
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			_, _ = fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// AddGateway starts one more gateway on the cluster (for start-time
// figures) with flags args.
func (c *Cluster) AddGateway(t testing.TB, args ...string) *Proc {
	t.Helper()
	port := freePorts(t, 1)[0]
	env := []string{"CMEM_NATS_URL=" + c.NATS.URLs(), "CMEM_NATS_REPLICAS=3", "CMEM_ADMIN_TOKEN=" + AdminToken, "CMEM_LOG_LEVEL=warn"}
	// A start at 1M+ events takes minutes on a loaded machine.
	p := c.add(t, "gateway", fmt.Sprintf("127.0.0.1:%d", port), env, args, 30*time.Minute)
	c.Gateways = append(c.Gateways, p)
	return p
}
