package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// roleLine is the line a role prints when it is ready.
var roleLine = regexp.MustCompile(`cmem (\w+): http://(\S*)  nats: (nats://\S+)`)

// startRole starts `cmem <role>` with env and returns it once ready, with
// the HTTP address and NATS URL it printed.
func startRole(t *testing.T, role string, env []string, args ...string) (cmd *exec.Cmd, httpAddr, natsURL string) {
	t.Helper()
	cmd = exec.Command(binary, append([]string{role}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	ready := make(chan []string, 1)
	var all strings.Builder
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			if m := roleLine.FindStringSubmatch(sc.Text()); m != nil && m[1] == role {
				ready <- m
			}
		}
	}()
	select {
	case m := <-ready:
		return cmd, m[2], m[3]
	case <-time.After(60 * time.Second):
		t.Fatalf("cmem %s did not become ready:\n%s", role, all.String())
		return nil, "", ""
	}
}

// Two worker processes share the pipeline's durable consumers. One is
// killed with SIGKILL while queries are in flight; the other takes over
// its unacknowledged stages after AckWait, and every query is answered
// exactly once.
func TestKilledWorkerLosesNoQuery(t *testing.T) {
	var calls atomic.Int32
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		time.Sleep(300 * time.Millisecond)
		_, _ = fmt.Fprintf(w, "Fact %d: the answer is in the archive.", calls.Load())
	}))
	defer slow.Close()
	const token = "kill-test-admin-token-0123456789"
	// Other cmem processes share the embedded server with its service
	// token; the admin token does not get onto the bus.
	const service = "kill-test-service-token-0123456789"
	env := []string{"CMEM_ADMIN_TOKEN=" + token, "CMEM_NATS_SERVICE_TOKEN=" + service}
	// Every query calls the slow resource: memory must not answer for it.
	timing := []string{"-stage-timeout", "2s", "-ack-wait", "3s", "-coverage", "2"}
	_, addr, natsURL := startRole(t, "serve", append(env, "CMEM_DATA="+t.TempDir()),
		append([]string{"-http", "127.0.0.1:0", "-nats-port", "-1"}, timing...)...)
	authed := strings.Replace(natsURL, "nats://", "nats://"+service+"@", 1)
	worker, _, _ := startRole(t, "worker", append(env, "CMEM_DATA="+t.TempDir(), "CMEM_NATS_URL="+authed), timing...)
	base := "http://" + addr

	call(t, "POST", base+"/v1/agents", token, map[string]string{"id": "archivist", "description": "archive facts history records"})
	call(t, "POST", base+"/v1/resources", token, map[string]any{"id": "archive", "kind": "http", "description": "archive facts history records", "url": slow.URL})
	st, body := call(t, "POST", base+"/v1/users", token, map[string]string{"id": "u"})
	if st != http.StatusCreated {
		t.Fatalf("register: %d %v", st, body)
	}
	user := body["token"].(string)
	call(t, "PUT", base+"/v1/grants/user-agent/u/archivist", token, nil)
	call(t, "PUT", base+"/v1/grants/agent-resource/archivist/archive", token, nil)

	const queries = 10
	var ids []string
	for i := range queries {
		st, body := call(t, "POST", base+"/v1/queries", user, map[string]any{"text": fmt.Sprintf("archive history records item %d", i), "wait": false})
		if st != http.StatusAccepted {
			t.Fatalf("submit: %d %v", st, body)
		}
		ids = append(ids, body["id"].(string))
	}
	for calls.Load() < 3 {
		time.Sleep(20 * time.Millisecond)
	}
	if err := worker.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	for _, id := range ids {
		for {
			st, body := call(t, "GET", base+"/v1/queries/"+id+"?wait=5", user, nil)
			if st == http.StatusOK {
				if body["status"] != "answered" {
					t.Fatalf("query %s: %v", id, body)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("query %s not answered after the worker was killed: %d %v", id, st, body)
			}
		}
	}
	answered := countByQuery(t, authed, "cmem.query.answered")
	for _, id := range ids {
		if answered[id] != 1 {
			t.Fatalf("query %s answered %d times, want exactly once", id, answered[id])
		}
	}
}

// countByQuery reads the event stream as an admin and counts events of
// one type per correlation id (the query id).
func countByQuery(t *testing.T, url, typ string) map[string]int {
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stream, err := js.Stream(ctx, "CMEM_EVENTS")
	if err != nil {
		t.Fatal(err)
	}
	info, _ := stream.Info(ctx)
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for seen := uint64(0); seen < info.State.Msgs; seen++ {
		m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Type, CorrelationID string }
		_ = json.Unmarshal(m.Data(), &e)
		if e.Type == typ {
			out[e.CorrelationID]++
		}
	}
	return out
}
