package audit_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
	"github.com/cmem/cmem/projectors/audit/audittest"
)

// TestContract holds the History to the contract every audit backend
// passes. It is fed as node feeds it, from a log on a projection runner
// after its graph, while the suite's reference is fed the same events in
// process.
func TestContract(t *testing.T) {
	audittest.Run(t, func(t *testing.T) audittest.Fixture {
		l := logtest.Open(t, "")
		graph := access.NewGraph()
		h := audit.NewHistory(graph)
		runner, err := projectors.NewRunner(l, logtest.Logger(), graph, h)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = runner.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		return audittest.Fixture{Backend: h, Append: func(t testing.TB, envs []events.Envelope) {
			head := audittest.AppendLog(t, l, envs)
			wctx, wcancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer wcancel()
			if err := runner.WaitFor(wctx, head); err != nil {
				t.Fatal(err)
			}
		}}
	})
}
