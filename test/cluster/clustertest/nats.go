// Package clustertest starts a real cmem cluster for tests and for
// `make cluster`: three nats-server processes forming a JetStream cluster on
// loopback, and cmem gateway and worker processes of one binary built for
// the run. Every process can be killed (SIGKILL) and started again on the
// same ports and data directories.
package clustertest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/internal/childproc"
)

// NATSNode is one nats-server of the cluster.
type NATSNode struct {
	Name        string
	ClientPort  int
	ClusterPort int
	Dir         string
	routes      string

	mu  sync.Mutex
	cmd *exec.Cmd
	log *LockedLog
}

// URL is the node's client URL.
func (n *NATSNode) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.ClientPort) }

// NATS is a three-node JetStream cluster.
type NATS struct {
	Nodes []*NATSNode
}

// URLs is every node's client URL, comma-separated, as CMEM_NATS_URL takes
// them.
func (c *NATS) URLs() string {
	urls := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		urls[i] = n.URL()
	}
	return strings.Join(urls, ",")
}

// natsServer finds the nats-server binary: on PATH, or where `go install`
// puts it. Under CI its absence fails the test; elsewhere too, with the
// command that installs it.
func natsServer(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "nats-server")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("nats-server not found: run test/install-deps.sh (go install github.com/nats-io/nats-server/v2@v2.15.2)")
	return ""
}

// StartNATS starts a three-node JetStream cluster that stops when the test
// ends, and waits until JetStream answers through every node.
func StartNATS(t testing.TB) *NATS {
	t.Helper()
	c := StartNATSNodes(t, 3)
	c.WaitReady(t, 60*time.Second)
	return c
}

// StartNATSNodes sets up a three-node JetStream cluster and starts only
// its first running nodes (Restart starts the others): with one of three
// there is no quorum, and nothing of JetStream answers. It does not wait.
func StartNATSNodes(t testing.TB, running int) *NATS {
	t.Helper()
	bin := natsServer(t)
	ports := freePorts(t, 6)
	c := &NATS{}
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[3+i]))
	}
	for i := range 3 {
		n := &NATSNode{Name: fmt.Sprintf("n%d", i+1), ClientPort: ports[i], ClusterPort: ports[3+i], Dir: t.TempDir(),
			routes: strings.Join(routes, ",")}
		c.Nodes = append(c.Nodes, n)
		if i < running {
			n.start(t, bin)
		}
	}
	t.Cleanup(func() {
		for _, n := range c.Nodes {
			n.Kill()
		}
	})
	return c
}

func (n *NATSNode) start(t testing.TB, bin string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	cmd := exec.Command(bin, "-js", "-sd", n.Dir, "-n", n.Name, "-a", "127.0.0.1", "-p", fmt.Sprint(n.ClientPort),
		"--cluster_name", "cmem", "--cluster", fmt.Sprintf("nats://127.0.0.1:%d", n.ClusterPort), "--routes", n.routes)
	n.log = &LockedLog{}
	cmd.Stdout, cmd.Stderr = n.log, n.log
	cmd.WaitDelay = 5 * time.Second // a kill must not hang on the output pipes
	if err := childproc.Start(cmd); err != nil {
		t.Fatalf("start %s: %v", n.Name, err)
	}
	n.cmd = cmd
}

// Kill stops the node with SIGKILL (no-op when it is not running).
func (n *NATSNode) Kill() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd != nil {
		_ = n.cmd.Process.Kill()
		_ = n.cmd.Wait()
		n.cmd = nil
	}
}

// Restart starts a killed node again on its ports and data directory; t
// is the calling (sub)test.
func (c *NATS) Restart(t testing.TB, n *NATSNode) {
	t.Helper()
	n.start(t, natsServer(t))
}

// WaitReady waits until JetStream answers account info through every
// running node (a meta leader was elected), and fails t, naming the node
// and with its output, if one does not within.
func (c *NATS) WaitReady(t testing.TB, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, n := range c.Nodes {
		n.mu.Lock()
		running := n.cmd != nil
		n.mu.Unlock()
		if !running {
			continue
		}
		for {
			err := jsReady(n.URL())
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("JetStream not ready through %s within %s: %v\n%s", n.Name, within, err, n.log.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func jsReady(url string) error {
	nc, err := nats.Connect(url, nats.Timeout(time.Second))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err
}

// StreamLeader returns the node that leads stream, by its server name.
func (c *NATS) StreamLeader(stream string) (*NATSNode, error) {
	for _, n := range c.Nodes {
		nc, err := nats.Connect(n.URL(), nats.Timeout(time.Second))
		if err != nil {
			continue
		}
		js, err := jetstream.New(nc)
		if err != nil {
			nc.Close()
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		s, err := js.Stream(ctx, stream)
		var info *jetstream.StreamInfo
		if err == nil {
			info, err = s.Info(ctx)
		}
		cancel()
		nc.Close()
		if err != nil || info.Cluster == nil {
			continue
		}
		for _, m := range c.Nodes {
			if m.Name == info.Cluster.Leader {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("clustertest: no leader of %s found", stream)
}

// freePorts returns n distinct free TCP ports on loopback.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		_ = l.Close()
	}
	return out
}

// lines copies r's lines into b and calls on for each.
func lines(r interface{ Read([]byte) (int, error) }, b *strings.Builder, mu *sync.Mutex, on func(string)) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		mu.Lock()
		b.WriteString(sc.Text() + "\n")
		mu.Unlock()
		on(sc.Text())
	}
}

// LockedLog is output written by one goroutine (a process's exec copier,
// a logger) while a test reads it.
type LockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write implements io.Writer.
func (l *LockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
