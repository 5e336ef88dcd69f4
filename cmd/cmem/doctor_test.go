package main_test

import (
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// doctor runs `cmem doctor` in dir with env and returns its exit code and
// output.
func doctor(t *testing.T, dir string, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(binary, "doctor")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"CMEM_ADMIN_TOKEN=", "CMEM_NATS_URL=", "CMEM_WEAVIATE_URL=", "CMEM_CLICKHOUSE_DSN=", "CMEM_OPENAI_BASE_URL="}, env...)...)
	out, _ := cmd.CombinedOutput()
	return cmd.ProcessState.ExitCode(), string(out)
}

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l) {
			t.Errorf("doctor's report lacks %q:\n%s", l, out)
		}
	}
}

// TestDoctorWithNothingRunning: no cmem, no NATS, no data directory: exit
// 1, and each line says what to do.
func TestDoctorWithNothingRunning(t *testing.T) {
	dir := t.TempDir()
	code, out := doctor(t, dir, "CMEM_URL=http://127.0.0.1:"+closedPort(t), "CMEM_NATS_PORT="+closedPort(t), "CMEM_DATA="+filepath.Join(dir, "data"))
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	wantLines(t, out, "FAIL  gateway  nothing answers at http://127.0.0.1:", "start cmem (make run",
		"does not exist yet: cmem serve creates it", "the embedded NATS server runs inside cmem serve")
}

// TestDoctorAgainstARunningNode: an embedded node answers; the doctor says
// so, names NATS and its port, the admin token works, and how to read the
// bus; an empty token file a failed command left is a failure to fix.
func TestDoctorAgainstARunningNode(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	n := nodetest.Start(t, func(c *node.Config) { c.DataDir = data })
	nu, err := url.Parse(n.Log.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"CMEM_URL=http://" + n.Addr(), "CMEM_DATA=" + data, "CMEM_ADMIN_TOKEN=" + nodetest.AdminToken, "CMEM_NATS_PORT=" + nu.Port()}
	code, out := doctor(t, dir, env...)
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	wantLines(t, out, "ok    gateway  cmem answers at http://"+n.Addr()+" (API v1", "ok    token    the admin token signs in as an admin",
		"ok    nats     NATS ", "at 127.0.0.1:"+nu.Port()+" (JetStream true)", "--inbox-prefix _CMEM_READER", "ok    data     "+data)

	// A token the gateway does not know, and an empty token file.
	if err := os.WriteFile(filepath.Join(data, "alice.token.new"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env[2] = "CMEM_ADMIN_TOKEN=cmem_not-this-one"
	code, out = doctor(t, dir, env...)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	wantLines(t, out, "FAIL  token    the admin token", "is refused", "FAIL  data     "+filepath.Join(data, "alice.token.new")+" is empty")
}
