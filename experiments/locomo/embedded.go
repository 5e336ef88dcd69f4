package locomo

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

// embedded is a cmem node started in process on a temporary data dir,
// configured from the usual CMEM_* variables (a model when
// CMEM_OPENAI_BASE_URL is set, the offline default otherwise).
type embedded struct {
	n       *node.Node
	dir     string
	token   string
	baseURL string
}

func startEmbedded(ctx context.Context) (*embedded, error) {
	dir, err := os.MkdirTemp("", "cmem-locomo-")
	if err != nil {
		return nil, err
	}
	token := randomHex(16)
	cfg := node.Config{
		DataDir:        dir,
		HTTPAddr:       "127.0.0.1:0",
		NATSPort:       -1,
		AdminToken:     token,
		ReaderToken:    randomHex(16),
		ReadWait:       30 * time.Second,
		Source:         "cmem/bench-locomo",
		OpenAIBaseURL:  os.Getenv("CMEM_OPENAI_BASE_URL"),
		OpenAIAPIKey:   os.Getenv("OPENAI_API_KEY"),
		ChatModel:      os.Getenv("CMEM_CHAT_MODEL"),
		EmbeddingModel: os.Getenv("CMEM_EMBEDDING_MODEL"),
		WeaviateURL:    os.Getenv("CMEM_WEAVIATE_URL"),
		WeaviateGRPC:   os.Getenv("CMEM_WEAVIATE_GRPC"),
	}
	n, err := node.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &embedded{n: n, dir: dir, token: token, baseURL: "http://" + n.Addr()}, nil
}

// embeddedLabel names what answers in an embedded cmem.
func embeddedLabel() string {
	if os.Getenv("CMEM_OPENAI_BASE_URL") == "" {
		return "embedded cmem, offline model and embedder"
	}
	return "embedded cmem, model " + os.Getenv("CMEM_CHAT_MODEL") + " at CMEM_OPENAI_BASE_URL"
}

func (e *embedded) close() {
	e.n.Close()
	_ = os.RemoveAll(e.dir)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
