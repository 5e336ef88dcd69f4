package eventlog

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	dto "github.com/prometheus/client_model/go"
)

// leaderRequests counts the requests that go to the stream leader and wait
// for its answer: appends (one per event) and heads (the read fences). It
// is how the cost of a use case in round trips is measured.
var leaderRequests = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "cmem_log_leader_requests_total",
	Help: "Requests to the stream leader that wait for its answer, by operation (append, head).",
}, []string{"op"})

var (
	appendRequests = leaderRequests.WithLabelValues("append")
	headRequests   = leaderRequests.WithLabelValues("head")
)

// groupedAppends is how many appends each group commit carried.
var groupedAppends = promauto.NewHistogram(prometheus.HistogramOpts{
	Name:    "cmem_log_group_commit_events",
	Help:    "Appends sent to the stream leader together in one atomic batch (group commit).",
	Buckets: prometheus.ExponentialBuckets(2, 2, 10),
})

// LeaderRequests returns how many appends and heads this process has sent
// to the stream leader so far.
func LeaderRequests() (appends, heads uint64) {
	return uint64(counterValue(appendRequests)), uint64(counterValue(headRequests))
}

func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		return 0
	}
	return m.GetCounter().GetValue()
}
