package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit/audittest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
)

// TestContract holds the Store to the contract every audit backend
// passes, on a fresh database of the shared server per subtest. Without
// clickhouse-server it fails, naming how to install it.
func TestContract(t *testing.T) { audittest.Run(t, newFixture) }

// newFixture is a Store on a fresh database, fed by its projector from a
// log of its own. Batches far smaller than the random workload make its
// flushes cut through it.
func newFixture(t *testing.T) audittest.Fixture {
	r := newRig(t, clickhousetest.Shared(t), clickhouse.Config{BatchSize: 100})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	// The projector creates the schema too, but the suite asks at once.
	if err := r.store.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	return audittest.Fixture{Backend: r.store, Append: func(t testing.TB, envs []events.Envelope) {
		r.append(t, envs)
		r.caughtUp(t)
	}}
}
