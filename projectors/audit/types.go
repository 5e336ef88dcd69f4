package audit

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/cmem/cmem/events"
)

// Read is one thing shown to a user, with the audit's verdict on it: a
// fragment a memory view surfaced (Kind KindRead), or a query's answer and
// steps delivered to its user (Kind KindDelivery: Query and Label are set,
// Agent, Fragment and Tier are empty — delivery is a read, by the user
// itself). Admissible is computed from the graphs as of the read, never
// taken from the reader.
type Read struct {
	// Kind is KindRead or KindDelivery.
	Kind     string    `json:"kind"`
	User     string    `json:"user"`
	Agent    string    `json:"agent"`
	At       time.Time `json:"at"`       // the read event's time
	Revision uint64    `json:"revision"` // the read event's revision
	// Admissible: the fragment existed before the read, the read's graph
	// revision precedes it, a private fragment was its own user's, and
	// A(m) ⊆ A(user) and R(m) ⊆ R(agent) at the graph revision.
	Admissible    bool   `json:"admissible"`
	Fragment      string `json:"fragment"`
	Event         string `json:"event"`
	GraphRevision uint64 `json:"graph_revision"`
	// Tier is the list the read put the fragment in (private if both).
	Tier string `json:"tier"`
	// Reason says why a read was not admissible; empty when it was.
	Reason string `json:"reason,omitempty"`
	// Query is the delivered query (deliveries only).
	Query string `json:"query,omitempty"`
	// Label is what a delivery showed: the union of the labels of its
	// answer and steps (deliveries only).
	Label *events.Label `json:"label,omitempty"`
	// Detail names the edge a delivery's label lacked, in the words of
	// access.Verdict.Reason (inadmissible labels only).
	Detail string `json:"detail,omitempty"`
}

// Kinds of Read.
const (
	KindRead     = "read"
	KindDelivery = "delivery"
)

// Reasons a read is not admissible, checked in this order.
const (
	ReasonUnknownFragment = "unknown fragment"
	ReasonFutureGraph     = "graph revision not before the read"
	ReasonPrivate         = "private fragment of another user"
	ReasonProvenance      = "provenance not admissible at the graph revision"
	// ReasonLabel is a delivery whose label access.Admits refuses to its
	// user at the delivery's graph revision (ReasonFutureGraph is checked
	// first, as for reads).
	ReasonLabel = "label not admissible at the graph revision"
)

// Window is a range of event times in unix nanoseconds: From inclusive, To
// exclusive.
type Window struct{ From, To int64 }

// AllTime is the window without bounds.
func AllTime() Window { return Window{From: math.MinInt64, To: math.MaxInt64} }

func (w Window) has(ns int64) bool { return ns >= w.From && ns < w.To }

// QueryMetrics are the paper's per-query figures.
type QueryMetrics struct {
	Query  string    `json:"query"`
	User   string    `json:"user"`
	At     time.Time `json:"at"` // the query's first event
	Agents []string  `json:"agents"`
	// ResourceCalls counts tool calls; the fragment counts are distinct
	// fragments per tier read, and fragments written, by the query.
	ResourceCalls        uint64 `json:"resource_calls"`
	PrivateFragmentsRead uint64 `json:"private_fragments_read"`
	SharedFragmentsRead  uint64 `json:"shared_fragments_read"`
	FragmentsWritten     uint64 `json:"fragments_written"`
}

// BinMetrics is what one user did in one time bin. MemoryReads counts
// memory views; the fragment-read counts count each fragment each view
// surfaced.
type BinMetrics struct {
	Start                time.Time `json:"start"`
	User                 string    `json:"user"`
	Queries              uint64    `json:"queries"`
	ResourceCalls        uint64    `json:"resource_calls"`
	MemoryReads          uint64    `json:"memory_reads"`
	PrivateFragmentsRead uint64    `json:"private_fragments_read"`
	SharedFragmentsRead  uint64    `json:"shared_fragments_read"`
	FragmentsWritten     uint64    `json:"fragments_written"`
}

// ReusePair counts reads by Reader of fragments written for Writer.
type ReusePair struct {
	Writer    string `json:"writer"`
	Reader    string `json:"reader"`
	Reads     uint64 `json:"reads"`
	Fragments uint64 `json:"fragments"`
}

// Reuse is memory written for one user and read for another.
type Reuse struct {
	CrossUserReads  uint64      `json:"cross_user_reads"`
	FragmentsReused uint64      `json:"fragments_reused"`
	Pairs           []ReusePair `json:"pairs"`
}

// Metrics is the analytics report over a window.
type Metrics struct {
	From     *time.Time     `json:"from,omitempty"`
	To       *time.Time     `json:"to,omitempty"`
	Bin      string         `json:"bin"`
	Revision uint64         `json:"revision"`
	Queries  []QueryMetrics `json:"queries"`
	Bins     []BinMetrics   `json:"bins"`
	Reuse    Reuse          `json:"reuse"`
}

// Backend answers audit questions. History implements it in process and
// package clickhouse's Store in ClickHouse; both must agree on every
// answer, which package audittest holds every implementation to.
type Backend interface {
	// Revision is the highest log revision the answers include.
	Revision(ctx context.Context) (uint64, error)
	// Visible is M(user, agent, at), sorted.
	Visible(ctx context.Context, user, agent string, at time.Time) ([]string, error)
	// Reads lists every read of fragment, by revision.
	Reads(ctx context.Context, fragment string) ([]Read, error)
	// Violations lists the reads and deliveries in w that were not
	// admissible, by (revision, fragment).
	Violations(ctx context.Context, w Window) ([]Read, error)
	// Deliveries lists every delivery of query, by revision.
	Deliveries(ctx context.Context, query string) ([]Read, error)
	// Metrics reports over w with bins of width bin.
	Metrics(ctx context.Context, w Window, bin time.Duration) (Metrics, error)
}

// NanoTime is how every backend turns stored unix nanoseconds into the
// times of its answers (UTC, so that equal answers compare equal).
func NanoTime(ns int64) time.Time { return time.Unix(0, ns).UTC() }

// SortVerdicts orders rows as Violations answers: by (revision, fragment).
// Every backend sorts with it, so ties come out in one order.
func SortVerdicts(rows []Read) {
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Revision != rows[j].Revision {
			return rows[i].Revision < rows[j].Revision
		}
		return rows[i].Fragment < rows[j].Fragment
	})
}

// DeliveryLabel is how every backend presents a delivery's label: agents
// and resources never nil, fragments nil when empty.
func DeliveryLabel(agents, resources, fragments []string) *events.Label {
	l := events.Label{Agents: nonNil(agents), Resources: nonNil(resources)}
	if len(fragments) > 0 {
		l.Fragments = fragments
	}
	return &l
}
