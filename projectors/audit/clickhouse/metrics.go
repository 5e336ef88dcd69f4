package clickhouse

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	lagEvents = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "cmem_audit_lag_events",
		Help: "Events on the log not yet in the ClickHouse audit trail (log head - audit revision).",
	})
	auditRevision = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "cmem_audit_revision",
		Help: "Highest log revision written to the ClickHouse audit trail.",
	})
	rowsWritten = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "cmem_audit_rows_written_total",
		Help: "Rows written to the ClickHouse audit trail, by table.",
	}, []string{"table"})
	sessionFailures = promauto.NewCounter(prometheus.CounterOpts{
		Name: "cmem_audit_retries_total",
		Help: "Times the audit projector stopped on an error (ClickHouse unreachable, log subscription lost) and retried.",
	})
)
