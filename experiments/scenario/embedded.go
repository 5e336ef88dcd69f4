package scenario

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

// embedded is a cmem node started in-process on a temporary data dir.
type embedded struct {
	n       *node.Node
	dir     string
	token   string
	reader  string // the bus's read-only event-stream credential
	baseURL string
	natsURL string
}

// startEmbedded starts a node with embedded NATS on a free port; the
// model, Weaviate and ClickHouse come from the usual CMEM_* variables.
func startEmbedded(ctx context.Context) (*embedded, error) {
	dir, err := os.MkdirTemp("", "cmem-scenario-")
	if err != nil {
		return nil, err
	}
	token, reader := randomToken(), randomToken()
	cfg := node.Config{
		DataDir:        dir,
		HTTPAddr:       "127.0.0.1:0",
		NATSPort:       -1,
		AdminToken:     token,
		ReaderToken:    reader,
		ReadWait:       10 * time.Second,
		Source:         "cmem/scenario",
		OpenAIBaseURL:  os.Getenv("CMEM_OPENAI_BASE_URL"),
		OpenAIAPIKey:   os.Getenv("OPENAI_API_KEY"),
		ChatModel:      os.Getenv("CMEM_CHAT_MODEL"),
		EmbeddingModel: os.Getenv("CMEM_EMBEDDING_MODEL"),
		WeaviateURL:    os.Getenv("CMEM_WEAVIATE_URL"),
		WeaviateGRPC:   os.Getenv("CMEM_WEAVIATE_GRPC"),
	}
	cfg.Audit.DSN = os.Getenv("CMEM_CLICKHOUSE_DSN")
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := node.Start(ctx, cfg, logger)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &embedded{n: n, dir: dir, token: token, reader: reader, baseURL: "http://" + n.Addr(), natsURL: n.Log.ClientURL()}, nil
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
