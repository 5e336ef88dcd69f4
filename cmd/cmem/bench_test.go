package main_test

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// cmemOut runs the binary and returns its exit code, stdout and stderr.
func cmemOut(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

func TestBenchDispatch(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "usage: cmem bench gatemem|locomo"},
		{[]string{"bench", "nope"}, `unknown benchmark "nope"`},
		{[]string{"bench", "locomo"}, "Data (-data) is required"},
		{[]string{"bench", "locomo", "-data", "../../experiments/locomo/testdata/synthetic.json", "-conversations", "x"}, "want indexes like 0-9"},
	} {
		code, _, stderr := cmemOut(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("cmem %v: exit %d, stderr %q, want 1 and %q", c.args, code, stderr, c.want)
		}
	}
}

// The command end to end on the shipped conversation, recall only.
func TestBenchLocomoRuns(t *testing.T) {
	code, out, stderr := cmemOut(t, "bench", "locomo", "-data", "../../experiments/locomo/testdata/synthetic.json", "-no-answers", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"1 conversations, 18 turns, 11 questions", "| overall 1-4 | 9 |", "cmem R@10", "BM25 R@10"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "answer F1") {
		t.Errorf("-no-answers printed answer F1:\n%s", out)
	}
}
