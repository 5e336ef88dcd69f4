package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cmem-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cmem")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build cmem: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

type proc struct {
	cmd    *exec.Cmd
	base   string
	stderr *bytes.Buffer
	mu     *sync.Mutex
}

var readyLine = regexp.MustCompile(`cmem serve: http://(\S+)`)

// serve starts the real binary on dataDir and waits for its ready line.
func serve(t *testing.T, dataDir string) *proc {
	t.Helper()
	cmd := exec.Command(binary, "serve", "-http", "127.0.0.1:0", "-nats-port", "-1")
	cmd.Env = append(os.Environ(), "CMEM_DATA="+dataDir, "CMEM_ADMIN_TOKEN=")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stderr: &bytes.Buffer{}, mu: &sync.Mutex{}}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := readyLine.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		p.base = "http://" + a
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("cmem serve did not become ready:\n%s", p.log())
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return p
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

func call(t *testing.T, method, url, token string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func TestKill9AndRestartLoseNothing(t *testing.T) {
	dir := t.TempDir()
	p := serve(t, dir)
	raw, err := os.ReadFile(filepath.Join(dir, "admin.token"))
	if err != nil {
		t.Fatal(err)
	}
	admin := strings.TrimSpace(string(raw))
	if st, _ := call(t, "POST", p.base+"/v1/agents", admin, map[string]string{"id": "a", "description": "d"}); st != http.StatusCreated {
		t.Fatalf("register agent: %d", st)
	}
	const users = 60
	tokens := make([]string, users)
	var wg sync.WaitGroup
	var maxRev uint64
	var mu sync.Mutex
	for i := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("u%d", i)
			st, body := call(t, "POST", p.base+"/v1/users", admin, map[string]string{"id": id})
			if st != http.StatusCreated {
				t.Errorf("register %s: %d", id, st)
				return
			}
			tokens[i] = body["token"].(string)
			st, body = call(t, "PUT", p.base+"/v1/grants/user-agent/"+id+"/a", admin, nil)
			if st != http.StatusOK {
				t.Errorf("grant %s: %d", id, st)
				return
			}
			mu.Lock()
			maxRev = max(maxRev, uint64(body["revision"].(float64)))
			mu.Unlock()
		}()
	}
	wg.Wait()
	// No graceful anything: the last acknowledgements are milliseconds old.
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()

	p = serve(t, dir)
	for i, tok := range tokens {
		st, body := call(t, "GET", fmt.Sprintf("%s/v1/access/u%d", p.base, i), tok, nil)
		if st != http.StatusOK {
			t.Fatalf("after restart u%d's token: %d %v", i, st, body)
		}
		if list, _ := body["agents"].([]any); len(list) != 1 || uint64(body["revision"].(float64)) < maxRev {
			t.Fatalf("after restart u%d: %v (acknowledged up to revision %d)", i, body, maxRev)
		}
	}
	if st, _ := call(t, "POST", p.base+"/v1/agents", admin, map[string]string{"id": "b", "description": "d"}); st != http.StatusCreated {
		t.Fatalf("the admin token in the data dir must survive a restart: %d", st)
	}
}

func TestSIGTERMDrainsAndExitsCleanly(t *testing.T) {
	p := serve(t, t.TempDir())
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, p.log())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("cmem did not exit after SIGTERM")
	}
	if !strings.Contains(p.log(), "stopped cleanly") {
		t.Fatalf("no clean stop in the log:\n%s", p.log())
	}
}
