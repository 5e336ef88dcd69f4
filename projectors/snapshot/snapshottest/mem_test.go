package snapshottest_test

import (
	"testing"

	"github.com/cmem/cmem/projectors/snapshot/snapshottest"
)

// TestMemContract holds Mem, which the writer's and restore's tests use in
// place of natsobj, to the contract natsobj passes.
func TestMemContract(t *testing.T) {
	snapshottest.Run(t, func(*testing.T) snapshottest.Store { return snapshottest.NewMem() })
}
