package node

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/vectors/weaviate"
)

// leaseTTL is how long a dead holder keeps an external store's lease:
// another process takes over within about that.
const leaseTTL = 6 * time.Second

// holderID names this process as a lease holder: host and a name kept in
// the data directory (the lease adds the pid), so that the process restarted after a crash
// on the same data takes its leases back at once instead of waiting for
// them to expire. Two live processes never share a data directory.
func (n *Node) holderID() string {
	host, _ := os.Hostname()
	path := filepath.Join(n.cfg.DataDir, leaseHolderFile)
	name, err := os.ReadFile(path)
	if err != nil || len(name) == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		name = []byte(hex.EncodeToString(b[:]))
		if err := os.WriteFile(path, name, 0o600); err != nil {
			n.logger.Warn("lease holder name not kept: a restart waits for the leases to expire", "err", err)
		}
	}
	return fmt.Sprintf("%s-%s", cmp.Or(host, "host"), name)
}

// leaseHolderFile, in the data directory, names this process's leases.
const leaseHolderFile = "lease-holder.id"

// leaseStores puts the external stores under leases (issue 26: one writer
// per store): the Weaviate class's writes go through a LeasedStore, and
// the ClickHouse projector runs only in the holder (startProjections).
func (n *Node) leaseStores(ctx context.Context, external bool) error {
	holder := n.holderID()
	if ds, ok := n.Store.(weaviate.Durable); ok && external {
		err := n.step(ctx, "the vector store's lease", func(ctx context.Context) (err error) {
			n.viewLease, err = n.Log.Lease(ctx, "weaviate-"+cmp.Or(n.cfg.WeaviateClass, weaviate.DefaultClass), holder, leaseTTL)
			return err
		})
		if err != nil {
			return err
		}
		n.Store = weaviate.Leased(ds, n.viewLease, 0)
	}
	if n.cfg.Audit.DSN != "" {
		sum := sha256.Sum256([]byte(n.cfg.Audit.DSN))
		return n.step(ctx, "the audit store's lease", func(ctx context.Context) (err error) {
			n.auditLease, err = n.Log.Lease(ctx, "clickhouse-"+hex.EncodeToString(sum[:8]), holder, leaseTTL)
			return err
		})
	}
	return nil
}

// holdLease keeps trying for ls (nil: none) until ctx ends; what needs
// the lease checks it (the view's batches).
func holdLease(ctx context.Context, ls *eventlog.Lease) {
	if ls != nil {
		ls.Run(ctx, func(ctx context.Context) { <-ctx.Done() })
	}
}

// ViewLease is the lease on the Weaviate class (nil: the view is
// in-process), for tests and operators: Held says whether this process
// writes the class now.
func (n *Node) ViewLease() *eventlog.Lease { return n.viewLease }

// AuditLease is the lease on the ClickHouse tables (nil: no ClickHouse).
func (n *Node) AuditLease() *eventlog.Lease { return n.auditLease }
