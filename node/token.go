package node

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmem/cmem/app"
)

// Token files in DataDir, each readable only by the owner. Only their paths
// are ever logged, never their contents.
const (
	// AdminTokenFile holds a generated HTTP admin token.
	AdminTokenFile = "admin.token"
	// ServiceTokenFile holds the credential of cmem's own connections to
	// the embedded NATS server (the only one that may write the log or use
	// the JetStream API); other cmem processes sharing that server connect
	// with nats://<token>@host:port.
	ServiceTokenFile = "nats-service.token"
	// ReaderTokenFile holds the read-only event-stream credential for
	// analytics consumers of the embedded server.
	ReaderTokenFile = "nats-reader.token"
)

// adminToken returns the configured token, or the one in DataDir/admin.token,
// or creates that file with a fresh token.
func adminToken(cfg Config, logger *slog.Logger) (string, error) {
	return tokenFile(cfg.AdminToken, filepath.Join(cfg.DataDir, AdminTokenFile), "admin token", logger)
}

// tokenFile returns given, or the token in path, or creates path with a
// fresh token and logs where it is (not what it is).
func tokenFile(given, path, what string, logger *slog.Logger) (string, error) {
	if given != "" {
		return given, nil
	}
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("node: read %s: %w", what, err)
	}
	token, err := app.NewToken()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("node: write %s: %w", what, err)
	}
	logger.Info("generated the "+what, "file", path)
	return token, nil
}
