package audittest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/audit"
)

// admin is who the suite asks as: the audit is for admins only.
var admin = domain.Identity{ID: "admin", Admin: true}

// subject is a backend under test next to the reference, a History fed
// the same log in process. Both are asked through an audit.Service, as
// the API asks them.
type subject struct {
	f        Fixture
	got, ref *audit.Service
	graph    *access.Graph
	history  *audit.History
	revision uint64
}

func start(t *testing.T, newBackend NewBackend) *subject {
	t.Helper()
	s := &subject{f: newBackend(t), graph: access.NewGraph()}
	s.history = audit.NewHistory(s.graph)
	cfg := audit.ServiceConfig{ReadWait: 30 * time.Second, Poll: 10 * time.Millisecond}
	var err error
	if s.got, err = audit.NewService(cfg, s.f.Backend); err != nil {
		t.Fatal(err)
	}
	if s.ref, err = audit.NewService(cfg, s.history); err != nil {
		t.Fatal(err)
	}
	return s
}

// append appends envs to the backend's log and to the reference, and
// checks that the backend says it holds them all.
func (s *subject) append(t *testing.T, envs []events.Envelope) {
	t.Helper()
	s.f.Append(t, envs)
	for _, e := range envs {
		s.revision++
		rec := events.Record{Envelope: e, Revision: s.revision}
		// The graph first, as on a runner: the history answers with it.
		if err := s.graph.Apply(rec); err != nil {
			t.Fatal(err)
		}
		if err := s.history.Apply(rec); err != nil {
			t.Fatal(err)
		}
	}
	if rev, err := s.f.Backend.Revision(t.Context()); err != nil || rev != s.revision {
		t.Fatalf("after %d events the backend is at revision %d (%v)", s.revision, rev, err)
	}
}

// ask asks the backend and the reference the same question, fails unless
// both answer it alike, and returns the backend's answer.
func ask[T any](t *testing.T, s *subject, what string, question func(*audit.Service) (T, error)) T {
	t.Helper()
	got, err := question(s.got)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want, err := question(s.ref)
	if err != nil {
		t.Fatalf("%s, of the reference: %v", what, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\nbackend   %s\nreference %s", what, show(got), show(want))
	}
	return got
}

func (s *subject) visible(t *testing.T, user, agent string, at time.Time) []string {
	t.Helper()
	what := fmt.Sprintf("visible(%s, %s, %s)", user, agent, at.Format(time.RFC3339Nano))
	return ask(t, s, what, func(b *audit.Service) (audit.VisibleAnswer, error) {
		return b.Visible(t.Context(), admin, audit.VisibleQuery{User: user, Agent: agent, At: &at})
	}).Fragments
}

func (s *subject) reads(t *testing.T, fragment string) []audit.Read {
	t.Helper()
	return ask(t, s, "reads of "+fragment, func(b *audit.Service) ([]audit.Read, error) {
		return b.Reads(t.Context(), admin, fragment, 0)
	})
}

func (s *subject) deliveries(t *testing.T, query string) []audit.Read {
	t.Helper()
	return ask(t, s, "deliveries of "+query, func(b *audit.Service) ([]audit.Read, error) {
		return b.Deliveries(t.Context(), admin, query, 0)
	})
}

// violations asks for every violation of all time; Compare asks about
// windows.
func (s *subject) violations(t *testing.T) []audit.Read {
	t.Helper()
	return ask(t, s, "violations", func(b *audit.Service) ([]audit.Read, error) {
		return b.Violations(t.Context(), admin, audit.WindowQuery{})
	})
}

func (s *subject) metrics(t *testing.T, q audit.MetricsQuery) audit.Metrics {
	t.Helper()
	return ask(t, s, fmt.Sprintf("metrics %v", q), func(b *audit.Service) (audit.Metrics, error) {
		return b.Metrics(t.Context(), admin, q)
	})
}

func show(v any) string {
	if rs, ok := v.([]audit.Read); ok {
		return "\n" + dumpReads(rs)
	}
	return fmt.Sprintf("%+v", v)
}

func dumpReads(rs []audit.Read) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%+v label=%+v\n", r, r.Label)
	}
	return b.String()
}

func ptr[T any](v T) *T { return &v }

// event is p as an envelope at time at.
func event(t testing.TB, at time.Time, p events.Payload) events.Envelope {
	t.Helper()
	e, err := events.New(events.Meta{Source: "test", Actor: "admin", Time: at}, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
