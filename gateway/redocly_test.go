package gateway_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// redoclyVersion is the Redocly CLI the lint runs (Makefile's
// REDOCLY_VERSION).
const redoclyVersion = "2.77.0"

// TestRedoclyLint runs Redocly's recommended rules on the OpenAPI
// document: 0 errors (it exits non-zero on any). It needs npx (node):
// missing, it fails under CI (test/install-deps.sh installs it) and is
// skipped otherwise.
func TestRedoclyLint(t *testing.T) {
	npx, err := exec.LookPath("npx")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npx is not installed: the OpenAPI lint needs node (run test/install-deps.sh)")
		}
		t.Skip("npx not installed (test/install-deps.sh installs node); skipped outside CI")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npx, "--yes", "@redocly/cli@"+redoclyVersion, "lint", "--extends", "recommended", "openapi.json").CombinedOutput()
	if err != nil {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "Error was generated") {
		t.Fatalf("redocly lint reported errors:\n%s", out)
	}
}
