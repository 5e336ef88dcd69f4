package eventlog

import (
	"cmp"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// startEmbedded runs a single-node JetStream server in this process. It
// listens on Host:Port so that applications can publish queries onto the bus;
// cmem itself connects in-process.
func startEmbedded(cfg Config, logger *slog.Logger) (*server.Server, error) {
	opts := &server.Options{
		ServerName: "cmem-embedded",
		Host:       cfg.Host,
		Port:       cfg.Port,
		JetStream:  true,
		StoreDir:   filepath.Join(cfg.DataDir, "jetstream"),
		NoSigs:     true, // cmem owns signal handling and drains in order
		NoLog:      true,
		// Every write reaches the disk before it is acknowledged, unless
		// the operator chose an interval (Config.SyncInterval).
		SyncAlways:   cfg.SyncInterval == 0,
		SyncInterval: cfg.SyncInterval,
	}
	reader := &readerAccount{}
	if cfg.InternalToken != "" {
		opts.CustomClientAuthentication = serverAuth{internal: cfg.InternalToken, authz: cfg.Authorizer, reader: reader}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("eventlog: embedded server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, ErrEmbeddedNotReady
	}
	acc, err := setupReaderAccount(srv, cmp.Or(cfg.Stream, DefaultStream))
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	reader.acc.Store(acc)
	sync := "always"
	if cfg.SyncInterval > 0 {
		sync = cfg.SyncInterval.String()
	}
	logger.Info("embedded nats-server ready", "url", srv.ClientURL(), "store", opts.StoreDir, "sync", sync)
	return srv, nil
}
