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

// AdminTokenFile is where a generated admin token is kept, readable only by
// the owner.
const AdminTokenFile = "admin.token"

// adminToken returns the configured token, or the one in DataDir/admin.token,
// or creates that file with a fresh token and says so once.
func adminToken(cfg Config, logger *slog.Logger) (string, error) {
	if cfg.AdminToken != "" {
		return cfg.AdminToken, nil
	}
	path := filepath.Join(cfg.DataDir, AdminTokenFile)
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("node: read admin token: %w", err)
	}
	token, err := app.NewToken()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("node: write admin token: %w", err)
	}
	logger.Info("generated the admin token; it is printed this once", "file", path, "token", token)
	return token, nil
}
