package events_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
)

func timedFragment() *events.FragmentWritten {
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	return &events.FragmentWritten{ID: "f1", Key: "k", Value: "I went there last week", Tier: "private", User: "alice",
		Agents: []string{"planner"}, Resources: []string{}, CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Provenance: "direct", Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}, ObservedAt: &at,
		TimeRefs: []events.TimeRef{{Text: "last week", Start: "2023-04-24", End: "2023-05-01", Grain: "week"}}}
}

// v3 carries the observed time and the resolved expressions through the
// log, and the schema refuses a time ref it does not describe.
func TestFragmentWrittenV3RoundTrips(t *testing.T) {
	v := mustValidator(t)
	fw := timedFragment()
	e, err := events.New(events.Meta{Source: "test", Actor: "alice"}, fw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := roundTrip(t, v, e).Decode()
	if err != nil {
		t.Fatal(err)
	}
	back := p.(*events.FragmentWritten)
	if !back.ObservedTime().Equal(*fw.ObservedAt) || len(back.TimeRefs) != 1 || back.TimeRefs[0] != fw.TimeRefs[0] {
		t.Fatalf("round trip: observed %v refs %+v", back.ObservedAt, back.TimeRefs)
	}
	fw.TimeRefs[0].Grain = ""
	e, err = events.New(events.Meta{Source: "test", Actor: "alice"}, fw)
	if err == nil {
		_, err = v.Marshal(e)
	}
	if !errors.Is(err, events.ErrInvalid) || !strings.Contains(err.Error(), "grain") {
		t.Fatalf("an empty grain: %v, want ErrInvalid naming grain", err)
	}
}

// Without ObservedAt the valid time is the record time.
func TestObservedTimeDefaultsToCreatedAt(t *testing.T) {
	fw := timedFragment()
	fw.ObservedAt = nil
	if !fw.ObservedTime().Equal(fw.CreatedAt) {
		t.Fatalf("ObservedTime %v, want CreatedAt %v", fw.ObservedTime(), fw.CreatedAt)
	}
}
