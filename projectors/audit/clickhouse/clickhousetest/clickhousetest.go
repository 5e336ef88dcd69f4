// Package clickhousetest runs real ClickHouse servers for tests: the
// installed clickhouse-server (Debian's 18.16 here, or any later release)
// as a subprocess with its own configuration, data in a directory it owns,
// and a free native port, with no HTTP or interserver listener. A server
// can be stopped and started again on the same data (outage tests); one
// server is shared per test binary where tests only need a database.
package clickhousetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/cmem/cmem/internal/childproc"
)

// ErrNoServer names what to run when clickhouse-server is not installed.
var ErrNoServer = errors.New("clickhouse-server not found: run `make test-deps` (installs the Debian package) " +
	"or set CMEM_CLICKHOUSE_SERVER to its path")

// Server is one clickhouse-server subprocess.
type Server struct {
	dir  string
	port int
	bin  string

	mu     sync.Mutex
	cmd    *exec.Cmd
	out    *os.File
	exited chan error
}

// Binary finds clickhouse-server: CMEM_CLICKHOUSE_SERVER, then PATH, then
// the Debian package's location.
func Binary() (string, error) {
	if p := os.Getenv("CMEM_CLICKHOUSE_SERVER"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("clickhouse-server"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoServer
}

// New starts a server whose files live under dir (created if needed).
func New(dir string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, port: port, bin: bin}
	if err := s.writeConfig(); err != nil {
		return nil, err
	}
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// Addr is the server's native protocol address.
func (s *Server) Addr() string { return fmt.Sprintf("127.0.0.1:%d", s.port) }

// DSN is the clickhouse-go URL of database db on this server.
func (s *Server) DSN(db string) string { return "clickhouse://" + s.Addr() + "/" + db }

// Dir is where the server's configuration, data and logs live.
func (s *Server) Dir() string { return s.dir }

// Start runs the server (again) on its data and port and returns once a
// native ping succeeds.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("clickhousetest: server already running")
	}
	out, err := os.OpenFile(filepath.Join(s.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, "--config-file="+filepath.Join(s.dir, "config.xml"))
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = out, out
	// The server dies with the test binary even when no cleanup runs.
	if err := childproc.Start(cmd); err != nil {
		_ = out.Close()
		return fmt.Errorf("clickhousetest: start %s: %w", s.bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		if err := ping(ctx, s.Addr()); err == nil {
			s.cmd, s.out, s.exited = cmd, out, exited
			return nil
		}
		select {
		case err := <-exited:
			_ = out.Close()
			return fmt.Errorf("clickhousetest: server exited during start (%w): %s", err, s.logTail())
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			<-exited
			_ = out.Close()
			return fmt.Errorf("clickhousetest: server not ready within 60s: %s", s.logTail())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop shuts the server down (SIGTERM, then SIGKILL after 30s) and keeps
// its data for Start.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	_ = s.out.Close()
	s.cmd, s.out, s.exited = nil, nil, nil
	return nil
}

// Running reports whether the server process is up.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil
}

func (s *Server) logTail() string {
	var tail []byte
	for _, name := range []string{"stdout.log", "log/server.err.log"} {
		b, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			continue
		}
		if len(b) > 2000 {
			b = b[len(b)-2000:]
		}
		tail = append(tail, b...)
	}
	return string(tail)
}
