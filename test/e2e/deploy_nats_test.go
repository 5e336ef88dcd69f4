package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
)

// deploy/nats.conf, run by a real nats-server with cmem connected to it:
// the analytics reader, in its own account, reads the stream with an
// ordered (pull) consumer and with a push consumer under _CMEM_READER.,
// and cannot aim one at a user's inbox; a user whose password the
// operator changes loses its open connection on reload, as the
// configuration's comment says.
func TestDeployNATSConfReaderAndReload(t *testing.T) {
	bin := natsServerBinary(t)
	dir := t.TempDir()
	port := freePort(t)
	raw, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nats.conf"))
	if err != nil {
		t.Fatal(err)
	}
	conf := func(alicePass string) string {
		c := regexp.MustCompile(`(?ms)^cluster \{.*?^\}\n`).ReplaceAllString(string(raw), "")
		c = strings.Replace(c, "port: 4222", fmt.Sprintf("port: %d", port), 1)
		c = strings.Replace(c, "/data/jetstream", filepath.Join(dir, "js"), 1)
		return strings.Replace(c, "$ALICE_TOKEN", `"`+alicePass+`"`, 1)
	}
	path := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(path, []byte(conf("alice-old-password")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", path)
	cmd.Env = append(os.Environ(), "CMEM_NATS_PASSWORD=cmem-service-password", "ANALYTICS_PASSWORD=analytics-password")
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	connect := func(user, pass string, opts ...nats.Option) (*nats.Conn, error) {
		return nats.Connect(url, append([]nats.Option{nats.UserInfo(user, pass)}, opts...)...)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		nc, err := connect("cmem", "cmem-service-password")
		if err == nil {
			nc.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server did not come up: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, c := nodetest.StartClient(t, func(c *node.Config) { c.NATSURL = fmt.Sprintf("nats://cmem:cmem-service-password@127.0.0.1:%d", port) })
	c.User("alice", "user") // some events in the stream

	alice, err := connect("alice", "alice-old-password", nats.CustomInboxPrefix("_INBOX.alice"), nats.MaxReconnects(0))
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close()
	leaked := make(chan *nats.Msg, 256)
	if _, err := alice.ChanSubscribe("_INBOX.alice.>", leaked); err != nil {
		t.Fatal(err)
	}
	_ = alice.Flush()

	rd, err := connect("analytics", "analytics-password", nats.CustomInboxPrefix(subjects.ReaderInbox),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	js, err := jetstream.New(rd)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, "CMEM_EVENTS")
	if err != nil {
		t.Fatalf("the reader's stream info: %v", err)
	}
	info, err := st.Info(ctx)
	if err != nil || info.State.Msgs == 0 {
		t.Fatalf("stream info %v %v", info, err)
	}
	cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatalf("the reader's ordered consumer: %v", err)
	}
	batch, err := cons.Fetch(int(info.State.Msgs))
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for range batch.Messages() {
		got++
	}
	if got != int(info.State.Msgs) {
		t.Fatalf("the reader fetched %d of %d events (%v)", got, info.State.Msgs, batch.Error())
	}
	create := func(name, deliver string) map[string]any {
		body, _ := json.Marshal(map[string]any{"stream_name": "CMEM_EVENTS", "config": map[string]any{
			"name": name, "deliver_subject": deliver, "deliver_policy": "all", "ack_policy": "none"}})
		msg, err := rd.Request("$JS.API.CONSUMER.CREATE.CMEM_EVENTS."+name, body, 10*time.Second)
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
		var resp map[string]any
		_ = json.Unmarshal(msg.Data, &resp)
		return resp
	}
	if resp := create("evil", "_INBOX.alice.x"); resp["error"] == nil {
		t.Fatalf("a push consumer into alice's inbox was created: %v", resp)
	}
	mine := make(chan *nats.Msg, 256)
	if _, err := rd.ChanSubscribe("_CMEM_READER.mine", mine); err != nil {
		t.Fatal(err)
	}
	if resp := create("mine", "_CMEM_READER.mine"); resp["error"] != nil {
		t.Fatalf("the reader's own push consumer: %v", resp)
	}
	select {
	case <-mine:
	case <-time.After(20 * time.Second):
		t.Fatal("the reader's push consumer delivered nothing")
	}
	_ = alice.Flush()
	if len(leaked) > 0 {
		t.Fatalf("%d messages reached alice's inbox", len(leaked))
	}

	// The operator changes alice's password and reloads: her connection goes.
	if err := os.WriteFile(path, []byte(conf("alice-new-password")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(20 * time.Second)
	for !alice.IsClosed() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !alice.IsClosed() {
		t.Fatal("alice's connection survived the reload that changed her password")
	}
	if nc, err := connect("alice", "alice-old-password"); err == nil {
		nc.Close()
		t.Fatal("the old password still connects")
	}
	nc, err := connect("alice", "alice-new-password")
	if err != nil {
		t.Fatalf("the new password: %v", err)
	}
	nc.Close()
}

// natsServerBinary finds nats-server on PATH or where `go install` puts it.
func natsServerBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "nats-server")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("nats-server not found: run test/install-deps.sh")
	return ""
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}
