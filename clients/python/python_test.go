package python_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

const adminToken = "cmem_python-client-test-admin"

// TestPythonClient installs the client with pip into a temporary directory
// and runs its unittest suite against a `cmem serve` built from this tree.
func TestPythonClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is required under CI to test the Python client")
		}
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cmem")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/cmem").CombinedOutput(); err != nil {
		t.Fatalf("build cmem: %v\n%s", err, out)
	}
	site := filepath.Join(dir, "site")
	if out, err := exec.Command(python, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
		"--disable-pip-version-check", "--target", site, ".").CombinedOutput(); err != nil {
		t.Fatalf("pip install ./clients/python: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	serve := exec.CommandContext(ctx, bin, "serve", "-http", "127.0.0.1:0", "-nats-port", "-1")
	serve.Env = append(os.Environ(), "CMEM_DATA="+filepath.Join(dir, "data"), "CMEM_ADMIN_TOKEN="+adminToken)
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	ready := regexp.MustCompile(`cmem serve: (http://\S+)`)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := ready.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-addr:
	case <-time.After(2 * time.Minute):
		t.Fatal("cmem serve did not print its address")
	}

	// The suite runs from a directory without the source tree, so it
	// imports the pip-installed package.
	run := exec.CommandContext(ctx, python, "-m", "unittest", "discover", "-v", "-s", mustAbs(t, "tests"), "-t", mustAbs(t, "tests"))
	run.Dir = dir
	run.Env = append(os.Environ(), "PYTHONPATH="+site, "CMEM_URL="+url, "CMEM_ADMIN_TOKEN="+adminToken)
	out, err := run.CombinedOutput()
	t.Logf("python3 -m unittest:\n%s", out)
	if err != nil {
		t.Fatalf("the Python client's tests failed: %v", err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
