// Package embedded starts a cmem node in process, on a temporary data
// directory and free ports, for the experiment drivers (scenario, locomo,
// gatemem) that run against "an embedded cmem" when given no URL. The
// model comes from CMEM_OPENAI_BASE_URL and friends (offline without
// them); Weaviate and ClickHouse from their CMEM_* variables when the
// driver asks for them.
package embedded

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

// Options say what a driver's node is.
type Options struct {
	// Source names the driver in the node's events (cmem/scenario…).
	Source string
	// ReadWait is the node's read fence; a loaded benchmark wants more.
	ReadWait time.Duration
	// Weaviate takes CMEM_WEAVIATE_URL and CMEM_WEAVIATE_GRPC; ClickHouse
	// takes CMEM_CLICKHOUSE_DSN. A driver that resets its node per run
	// (gatemem's episodes) leaves them off: the external stores outlive it.
	Weaviate, ClickHouse bool
}

// Node is a started node with its admin and reader credentials.
type Node struct {
	*node.Node
	Dir     string
	Token   string // the admin's bearer token
	Reader  string // the bus's read-only event-stream credential
	BaseURL string
	NATSURL string
}

// Start starts a node as o says on a new temporary directory.
func Start(ctx context.Context, o Options) (*Node, error) {
	dir, err := os.MkdirTemp("", "cmem-"+base(o.Source)+"-")
	if err != nil {
		return nil, err
	}
	token, reader := RandomHex(16), RandomHex(16)
	cfg := node.Config{
		DataDir:        dir,
		HTTPAddr:       "127.0.0.1:0",
		NATSPort:       -1,
		AdminToken:     token,
		ReaderToken:    reader,
		ReadWait:       o.ReadWait,
		Source:         o.Source,
		OpenAIBaseURL:  os.Getenv("CMEM_OPENAI_BASE_URL"),
		OpenAIAPIKey:   os.Getenv("OPENAI_API_KEY"),
		ChatModel:      os.Getenv("CMEM_CHAT_MODEL"),
		EmbeddingModel: os.Getenv("CMEM_EMBEDDING_MODEL"),
	}
	if o.Weaviate {
		cfg.WeaviateURL, cfg.WeaviateGRPC = os.Getenv("CMEM_WEAVIATE_URL"), os.Getenv("CMEM_WEAVIATE_GRPC")
	}
	if o.ClickHouse {
		cfg.Audit.DSN = os.Getenv("CMEM_CLICKHOUSE_DSN")
	}
	n, err := node.Start(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &Node{Node: n, Dir: dir, Token: token, Reader: reader, BaseURL: "http://" + n.Addr(), NATSURL: n.Log.ClientURL()}, nil
}

// Close stops the node and removes its directory.
func (n *Node) Close() {
	n.Node.Close()
	_ = os.RemoveAll(n.Dir)
}

// RandomHex is n random bytes in hex: tokens and run prefixes.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// base is the last element of a source name ("cmem/scenario" → "scenario").
func base(source string) string {
	for i := len(source) - 1; i >= 0; i-- {
		if source[i] == '/' {
			return source[i+1:]
		}
	}
	return source
}
