package node

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/vectors/weaviate"
)

// leaseTTL is how long a dead holder keeps an external store's lease:
// another process takes over within about that.
const leaseTTL = 6 * time.Second

// holderID names this process as a lease holder.
func holderID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", cmp.Or(host, "host"), os.Getpid(), hex.EncodeToString(b[:]))
}

// leaseStores puts the external stores under leases (issue 26: one writer
// per store): the Weaviate class's writes go through a LeasedStore, and
// the ClickHouse projector runs only in the holder (startProjections).
func (n *Node) leaseStores(ctx context.Context, external bool) error {
	holder := holderID()
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
