package weaviatetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ReadyTimeout bounds a server's start.
const ReadyTimeout = 90 * time.Second

// Server is a running Weaviate.
type Server struct {
	URL      string // REST endpoint, http://127.0.0.1:port
	GRPCAddr string // gRPC host:port; empty if unknown (an external server)

	cmd     *exec.Cmd
	exited  chan struct{}
	dataDir string
	logPath string
}

// Binary returns the path of weaviate-server: on PATH, else in
// $(go env GOPATH)/bin.
func Binary() (string, error) {
	if p, err := exec.LookPath("weaviate-server"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		out, err := exec.Command("go", "env", "GOPATH").Output()
		if err != nil {
			return "", fmt.Errorf("weaviate-server is not on PATH and go env GOPATH failed: %w", err)
		}
		gopath = strings.TrimSpace(string(out))
	}
	p := filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "bin", "weaviate-server")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("weaviate-server is neither on PATH nor at %s; run `make test-deps` to build it", p)
	}
	return p, nil
}

// Start starts a weaviate-server on free ports with its data in a new
// temporary directory, and waits until it is ready. If it dies before it
// is ready (another process took a port in between), Start retries with
// new ports.
func Start(ctx context.Context) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	var errs []error
	for range 3 {
		s, err := start(ctx, bin)
		if err == nil {
			return s, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

func start(ctx context.Context, bin string) (*Server, error) {
	dir, err := os.MkdirTemp("", "cmem-weaviate-")
	if err != nil {
		return nil, fmt.Errorf("weaviatetest: %w", err)
	}
	ports, err := freePorts(6)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	httpPort, grpcPort, gossip, data, raft, raftRPC := ports[0], ports[1], ports[2], ports[3], ports[4], ports[5]
	s := &Server{
		URL:      fmt.Sprintf("http://127.0.0.1:%d", httpPort),
		GRPCAddr: fmt.Sprintf("127.0.0.1:%d", grpcPort),
		exited:   make(chan struct{}),
		dataDir:  dir,
		logPath:  filepath.Join(dir, "weaviate.log"),
	}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("weaviatetest: %w", err)
	}
	defer func() { _ = logFile.Close() }() // the child keeps its own descriptor

	s.cmd = exec.Command(bin, "--scheme", "http", "--host", "127.0.0.1", "--port", strconv.Itoa(httpPort))
	s.cmd.Env = append(os.Environ(),
		"PERSISTENCE_DATA_PATH="+filepath.Join(dir, "data"),
		"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true",
		"DEFAULT_VECTORIZER_MODULE=none",
		"CLUSTER_HOSTNAME=node1",
		// Without it the node advertises an IPv6 address and dies.
		"CLUSTER_ADVERTISE_ADDR=127.0.0.1",
		"CLUSTER_GOSSIP_BIND_PORT="+strconv.Itoa(gossip),
		"CLUSTER_DATA_BIND_PORT="+strconv.Itoa(data),
		"RAFT_PORT="+strconv.Itoa(raft),
		"RAFT_INTERNAL_RPC_PORT="+strconv.Itoa(raftRPC),
		"RAFT_BOOTSTRAP_EXPECT=1",
		"GRPC_PORT="+strconv.Itoa(grpcPort),
		// Otherwise every server would listen on :6060.
		"GO_PROFILING_DISABLE=true",
		"PROMETHEUS_MONITORING_ENABLED=false",
		"DISABLE_TELEMETRY=true",
	)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("weaviatetest: start %s: %w", bin, err)
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()

	if err := s.waitReady(ctx); err != nil {
		tail := s.LogTail(40)
		s.Stop()
		return nil, fmt.Errorf("weaviatetest: %w; last lines of its log:\n%s", err, tail)
	}
	return s, nil
}

func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ReadyTimeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/v1/.well-known/ready", nil)
		if resp, err := client.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.exited:
			return fmt.Errorf("weaviate-server exited before it was ready (%v)", s.cmd.ProcessState)
		case <-ctx.Done():
			return fmt.Errorf("weaviate-server not ready at %s: %w", s.URL, ctx.Err())
		case <-tick.C:
		}
	}
}

// DataDir is where the server keeps its files (PERSISTENCE_DATA_PATH);
// empty for an external server.
func (s *Server) DataDir() string {
	if s.dataDir == "" {
		return ""
	}
	return filepath.Join(s.dataDir, "data")
}

// LogTail returns the last n lines of the server's log.
func (s *Server) LogTail(n int) string {
	if s.logPath == "" {
		return "(external server: no log)"
	}
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return fmt.Sprintf("(log unreadable: %v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	return string(bytes.Join(lines[max(0, len(lines)-n):], []byte("\n")))
}

// Stop terminates the server's process group (SIGTERM, then SIGKILL after
// 10 s) and removes its data. It is a no-op for an external server.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	pgid := s.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-s.exited
	}
	_ = os.RemoveAll(s.dataDir)
}

// freePorts returns n distinct ports free for TCP on every interface and,
// for the gossip port, UDP too (memberlist uses both). The listeners are
// held until all are chosen so the kernel cannot hand one out twice.
func freePorts(n int) ([]int, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			_ = l.Close()
		}
	}()
	var ports []int
	for len(ports) < n {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			return nil, fmt.Errorf("weaviatetest: free port: %w", err)
		}
		held = append(held, l)
		p := l.Addr().(*net.TCPAddr).Port
		if u, err := net.ListenPacket("udp", ":"+strconv.Itoa(p)); err == nil {
			_ = u.Close()
			ports = append(ports, p)
		}
	}
	return ports, nil
}
