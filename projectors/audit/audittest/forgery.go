package audittest

import (
	"reflect"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/audit"
)

// forgery is the shape ForgedReads and ForgedAnswers share: an honest log
// that must leave the violations report empty, then events forged onto it,
// each expecting one violation (W says which), the backend agreeing with
// the reference throughout (subject checks it on every question).
type forgery[W any] struct {
	t      *testing.T
	s      *subject
	t0     time.Time
	envs   []events.Envelope
	base   uint64 // revision of the first forged event
	forged map[uint64]W
}

func newForgery[W any](t *testing.T, newBackend NewBackend, t0 time.Time) *forgery[W] {
	return &forgery[W]{t: t, s: start(t, newBackend), t0: t0, forged: map[uint64]W{}}
}

// next adds an honest event one second after the last and returns its
// revision on the fresh log.
func (f *forgery[W]) next(p events.Payload) uint64 {
	f.envs = append(f.envs, event(f.t, f.t0.Add(time.Duration(len(f.envs))*time.Second), p))
	return uint64(len(f.envs))
}

// honest appends the honest events and fails on any violation.
func (f *forgery[W]) honest() {
	f.t.Helper()
	f.s.append(f.t, f.envs)
	if v := f.s.violations(f.t); len(v) != 0 {
		f.t.Fatalf("violations of an honest log: %+v", v)
	}
	f.base = uint64(len(f.envs)) + 1
	f.envs = f.envs[:0]
}

// forge adds a forged event, an hour after the honest ones, expecting w.
func (f *forgery[W]) forge(p events.Payload, w W) {
	f.envs = append(f.envs, event(f.t, f.t0.Add(time.Hour+time.Duration(len(f.envs))*time.Second), p))
	f.forged[f.base+uint64(len(f.envs)-1)] = w
}

// found appends the forged events and calls check on each violation with
// what its event expected; there must be exactly one per forged event.
func (f *forgery[W]) found(check func(v audit.Read, w W) bool) {
	f.t.Helper()
	f.s.append(f.t, f.envs)
	v := f.s.violations(f.t)
	if len(v) != len(f.forged) {
		f.t.Fatalf("found %d violations, want the %d forged events: %+v", len(v), len(f.forged), v)
	}
	for _, x := range v {
		if w := f.forged[x.Revision]; x.Admissible || !check(x, w) {
			f.t.Fatalf("violation %+v, want %+v", x, w)
		}
	}
}

// verdicts fails unless rs are judged admissible as want, in order.
func verdicts(t *testing.T, what string, rs []audit.Read, want ...bool) {
	t.Helper()
	got := make([]bool, 0, len(rs))
	for _, x := range rs {
		got = append(got, x.Admissible)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s judged %v, want %v: %+v", what, got, want, rs)
	}
}
