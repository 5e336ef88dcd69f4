package eventlog

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// attemptTimeout bounds one request to the stream leader, and attempts
// how many are made. A request or its answer lost with a NATS node (the
// connection to it killed, the leader gone) is otherwise waited for the
// client's whole 5 s timeout — the cluster fault tests measured every
// command stalled for 5 s after a kill of any node — while the same
// request sent again on the reconnected client is answered at once.
const (
	attemptTimeout = 2 * time.Second
	attempts       = 3
)

var lostRequests = promauto.NewCounter(prometheus.CounterOpts{
	Name: "cmem_log_requests_retried_total",
	Help: "Requests to the stream leader sent again because the previous attempt was not answered in time.",
})

// retryLost runs op with at most attemptTimeout per attempt, again while
// an attempt times out and ctx allows, up to attempts times. Only for
// requests that are safe to repeat: reads, and appends, whose event id
// makes JetStream answer a repeat with the stored revision.
func retryLost[T any](ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	for i := 1; ; i++ {
		actx, cancel := context.WithTimeout(ctx, attemptTimeout)
		v, err := op(actx)
		cancel()
		lost := errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)
		if err == nil || !lost || ctx.Err() != nil || i == attempts {
			return v, err
		}
		lostRequests.Inc()
	}
}
