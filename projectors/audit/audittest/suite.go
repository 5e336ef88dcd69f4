package audittest

import (
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

// Fixture is one backend under test and the log it projects.
type Fixture struct {
	// Backend is the backend under test: empty, and ready to answer.
	Backend audit.Backend
	// Append appends envs to the backend's log, which starts empty, so that
	// the i-th envelope ever appended is revision i; it returns once the
	// backend's answers include them.
	Append func(t testing.TB, envs []events.Envelope)
}

// NewBackend returns a fresh Fixture the test owns; it registers its own
// cleanup.
type NewBackend func(t *testing.T) Fixture

// Run runs the contract suite against the backend newBackend builds. Every
// subtest gets a fresh backend.
func Run(t *testing.T, newBackend NewBackend) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewBackend)
	}{
		{"Empty", testEmpty},
		{"VisibleByHand", testVisibleByHand},
		{"MetricsByHand", testMetricsByHand},
		{"ForgedReadIsAViolation", ForgedReads},
		{"ForgedAnswerIsAViolation", ForgedAnswers},
		{"RandomWorkload", testRandomWorkload},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newBackend) })
	}
}

// testEmpty: a backend that holds nothing is at revision 0 and answers
// every question with nothing.
func testEmpty(t *testing.T, newBackend NewBackend) {
	b := newBackend(t).Backend
	ctx := t.Context()
	if rev, err := b.Revision(ctx); err != nil || rev != 0 {
		t.Fatalf("Revision = %d, %v; want 0", rev, err)
	}
	ids, err := b.Visible(ctx, "alice", "planner", workloadT0)
	if err != nil || len(ids) != 0 {
		t.Fatalf("Visible = %v, %v; want nothing", ids, err)
	}
	for name, ask := range map[string]func() ([]audit.Read, error){
		"Reads":      func() ([]audit.Read, error) { return b.Reads(ctx, "f1") },
		"Deliveries": func() ([]audit.Read, error) { return b.Deliveries(ctx, "q1") },
		"Violations": func() ([]audit.Read, error) { return b.Violations(ctx, audit.AllTime()) },
	} {
		if rs, err := ask(); err != nil || len(rs) != 0 {
			t.Fatalf("%s = %+v, %v; want nothing", name, rs, err)
		}
	}
	m, err := b.Metrics(ctx, audit.AllTime(), audit.DefaultBin)
	if err != nil || len(m.Queries) != 0 || len(m.Bins) != 0 || len(m.Reuse.Pairs) != 0 || m.Reuse.CrossUserReads != 0 {
		t.Fatalf("Metrics = %+v, %v; want nothing", m, err)
	}
}

// testRandomWorkload: on a random log (backdated events, ties, expiries,
// stale, forged and dangling reads, refused deliveries) the backend
// answers every question as the reference does.
func testRandomWorkload(t *testing.T, newBackend NewBackend) {
	s := start(t, newBackend)
	w := NewWorkload(5, 10, 5, 6, 1500)
	s.append(t, w.Envs)
	n := Compare(t, s.ref, s.got, w, 4, 100, 60)
	if n.Reads == 0 || n.BadReads == 0 || n.Deliveries == 0 || n.BadDeliveries == 0 {
		t.Fatalf("the workload exercised %+v; want admissible and inadmissible reads and deliveries", n)
	}
}
