package projectors_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
	"github.com/cmem/cmem/events/subjects"
	"github.com/cmem/cmem/projectors"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/access/accesstest"
)

// start runs a runner over a fresh graph until the test ends.
func start(t *testing.T, l *eventlog.Log) (*projectors.Runner, *access.Graph) {
	t.Helper()
	g := access.NewGraph()
	r, stop := startRunner(t, l, g)
	t.Cleanup(stop)
	return r, g
}

// startRunner runs a runner of l over projections until stop, which waits
// for Run to return.
func startRunner(t *testing.T, l *eventlog.Log, projections ...projectors.Projection) (r *projectors.Runner, stop func()) {
	t.Helper()
	r, err := projectors.NewRunner(l, logtest.Logger(), projections...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(ctx) }()
	return r, func() { cancel(); <-done }
}

func waitFor(t *testing.T, r *projectors.Runner, rev uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.WaitFor(ctx, rev); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedEventsAreDeadLetteredAndTheStreamFlows(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	r, g := start(t, l)

	grant, err := events.New(events.Meta{Source: "test", Actor: "admin"}, &events.UserAgentGranted{User: "u", Agent: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, grant); err != nil {
		t.Fatal(err)
	}
	// Written around cmem's checks, straight onto the stream.
	js := l.JetStream()
	bad := map[string]string{
		"cmem.events.garbage":               "{not json",
		"cmem.events.grants.user-agent.u.b": `{"specversion":"1.0","id":"x","source":"s","type":"cmem.user_agent.granted","schemaversion":1,"subject":"grants/user-agent/u/b","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"mallory","data":{"user":"u"}}`,
		"cmem.events.unknown":               `{"specversion":"1.0","id":"y","source":"s","type":"cmem.thing.happened","schemaversion":1,"subject":"x","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"a","data":{}}`,
	}
	var badRevs []uint64
	for _, subj := range []string{"cmem.events.garbage", "cmem.events.grants.user-agent.u.b", "cmem.events.unknown"} {
		ack, err := js.PublishMsg(ctx, &nats.Msg{Subject: subj, Data: []byte(bad[subj])})
		if err != nil {
			t.Fatal(err)
		}
		badRevs = append(badRevs, ack.Sequence)
	}
	later, err := events.New(events.Meta{Source: "test", Actor: "admin"}, &events.UserAgentGranted{User: "u", Agent: "c"})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := l.Append(ctx, later)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, r, rev)

	if got := g.Agents("u", access.Latest()); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("A(u) = %v, want [a c]: valid events after the bad ones must be projected, the bad grant must not", got)
	}
	dl, err := l.DeadLetters(ctx, "access")
	if err != nil {
		t.Fatal(err)
	}
	if len(dl) != len(badRevs) {
		t.Fatalf("%d dead letters, want %d", len(dl), len(badRevs))
	}
	wantReason := []string{"not JSON", "missing property 'agent'", "unknown event type"}
	for i, m := range dl {
		if m.Subject != subjects.DeadLetter("access", badRevs[i]) {
			t.Errorf("dead letter %d on %s", i, m.Subject)
		}
		if reason := m.Header.Get(eventlog.ReasonHeader); !strings.Contains(reason, wantReason[i]) {
			t.Errorf("dead letter %d reason %q, want it to contain %q", i, reason, wantReason[i])
		}
	}

	// A rebuild meets the same bad events and records nothing twice.
	r2, _ := start(t, l)
	waitFor(t, r2, rev)
	if dl, _ := l.DeadLetters(ctx, "access"); len(dl) != len(badRevs) {
		t.Fatalf("after a rebuild: %d dead letters, want %d", len(dl), len(badRevs))
	}
}

func TestWaitForHonoursContext(t *testing.T) {
	l := logtest.Open(t, "")
	r, _ := start(t, l)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := r.WaitFor(ctx, 1_000); !errors.Is(err, projectors.ErrNotReached) {
		t.Fatalf("got %v, want ErrNotReached", err)
	}
}

// The access projection, fed through the real log, agrees with the reference
// model on 10k random grants and revokes with scattered times, before and
// after a restart from the same data directory.
func TestAccessProjectionThroughTheLogMatchesModelAcrossRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	u := accesstest.NewUniverse(25, 10, 15)
	ops := accesstest.RandomOps(rng, u, 10_000, 1, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	model := accesstest.NewModel(ops)

	l, err := logtest.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	envs := make([]events.Envelope, len(ops))
	for i, o := range ops {
		if envs[i], err = events.New(events.Meta{Source: "test", Actor: "admin", Time: o.At}, o.Payload()); err != nil {
			t.Fatal(err)
		}
	}
	revs, err := l.AppendBatch(ctx, envs)
	if err != nil {
		t.Fatal(err)
	}
	for i, rev := range revs {
		if rev != ops[i].Rev {
			t.Fatalf("op %d stored at revision %d, model says %d", i, rev, ops[i].Rev)
		}
	}
	func() {
		g := access.NewGraph()
		r, stop := startRunner(t, l, g)
		defer stop()
		waitFor(t, r, revs[len(revs)-1])
		accesstest.CheckAgainstModel(t, rng, g, model, u, 3_000)
	}()
	l.Close()

	l2 := logtest.Open(t, dir)
	r, g := start(t, l2)
	waitFor(t, r, revs[len(revs)-1])
	accesstest.CheckAgainstModel(t, rng, g, model, u, 3_000)
}
