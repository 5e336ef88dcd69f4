package e2e_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/cluster/clustertest"
)

// A secret registered by reference never enters the event stream or the
// server's output, nor does one refused in clear, nor the generated tokens
// (only their paths are logged).
func TestNoSecretInTheLogOrTheServerOutput(t *testing.T) {
	const secret = "sk-live-SECRET-0123456789abcdef"
	t.Setenv("CMEM_SECRET_WEATHER", secret)
	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets")
	if err := os.MkdirAll(secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secrets, "maps"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out clustertest.LockedLog
	logger := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := node.Start(ctx, node.Config{DataDir: filepath.Join(dir, "data"), HTTPAddr: "127.0.0.1:0", NATSPort: -1,
		SecretsDir: secrets}, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	tokens := []string{secret}
	for _, f := range []string{node.AdminTokenFile, node.ServiceTokenFile, node.ReaderTokenFile} {
		b, err := os.ReadFile(filepath.Join(dir, "data", f))
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, strings.TrimSpace(string(b)))
	}
	admin := tokens[1]
	c := nodetest.NewClient(t, n)
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "weather", "kind": "http", "description": "d",
		"url": "http://127.0.0.1:1/x", "headers": map[string]any{"X-Api-Key": map[string]string{"env": "CMEM_SECRET_WEATHER"}}})
	c.Must(http.StatusCreated, "POST", "/v1/resources", admin, map[string]any{"id": "maps", "kind": "http", "description": "d",
		"url": "http://127.0.0.1:1/x", "headers": map[string]any{"Authorization": map[string]string{"file": "maps"}}})
	r := c.Must(http.StatusBadRequest, "POST", "/v1/resources", admin, map[string]any{"id": "leaky", "kind": "http", "description": "d",
		"url": "http://127.0.0.1:1/x", "headers": map[string]string{"Authorization": "Bearer " + secret}})
	if strings.Contains(string(r.Raw), secret) || !strings.Contains(string(r.Raw), "by reference") {
		t.Fatalf("refusal: %s", r.Raw)
	}
	u := c.Must(http.StatusCreated, "POST", "/v1/users", admin, map[string]string{"id": "alice", "role": "user"})
	tokens = append(tokens, u.Body["token"].(string))

	// Every event in the stream, raw.
	js := n.Log.JetStream()
	cons, err := js.OrderedConsumer(ctx, "CMEM_EVENTS", jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	head, err := n.Log.Head(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(int(head))
	if err != nil {
		t.Fatal(err)
	}
	var events []byte
	got := 0
	for m := range batch.Messages() {
		events = append(events, m.Data()...)
		got++
	}
	if got != int(head) || !bytes.Contains(events, []byte(`"CMEM_SECRET_WEATHER"`)) {
		t.Fatalf("read %d of %d events; the reference is missing", got, head)
	}
	n.Close()
	logged := out.String()
	for i, tok := range tokens {
		if bytes.Contains(events, []byte(tok)) {
			t.Errorf("secret %d is in the event stream", i)
		}
		if strings.Contains(logged, tok) {
			t.Errorf("secret %d is in the server output", i)
		}
	}
	if !strings.Contains(logged, node.AdminTokenFile) {
		t.Error("the server output does not say where the admin token is")
	}
}
