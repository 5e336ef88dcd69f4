package gatemem

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/cmem/cmem/node"
)

// embedded is a fresh cmem started in-process on a temporary data dir: the
// protocol's per-episode reset.
type embedded struct {
	n     *node.Node
	dir   string
	token string
	base  string
}

// startEmbedded starts a node with embedded NATS on free ports; the model
// comes from CMEM_OPENAI_BASE_URL and friends, offline without them.
func startEmbedded(ctx context.Context) (*embedded, error) {
	dir, err := os.MkdirTemp("", "cmem-gatemem-")
	if err != nil {
		return nil, err
	}
	token := randomToken()
	cfg := node.Config{
		DataDir:        dir,
		HTTPAddr:       "127.0.0.1:0",
		NATSPort:       -1,
		AdminToken:     token,
		ReaderToken:    randomToken(),
		ReadWait:       10 * time.Second,
		Source:         "cmem/gatemem",
		OpenAIBaseURL:  os.Getenv("CMEM_OPENAI_BASE_URL"),
		OpenAIAPIKey:   os.Getenv("OPENAI_API_KEY"),
		ChatModel:      os.Getenv("CMEM_CHAT_MODEL"),
		EmbeddingModel: os.Getenv("CMEM_EMBEDDING_MODEL"),
	}
	n, err := node.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &embedded{n: n, dir: dir, token: token, base: "http://" + n.Addr()}, nil
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (e *embedded) close() {
	e.n.Close()
	_ = os.RemoveAll(e.dir)
}
