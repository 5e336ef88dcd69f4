package clustertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// Fill appends n events straight to the cluster's log, as a deployment's
// history would look: per 10 events, 3 grants, 2 fragment writes and one
// query's lifecycle (submitted, selected, responded, answered, delivered
// counted as 5 with a second grant). Users u0..u9999, agents a0..a99.
func Fill(t testing.TB, c *Cluster, n int) { FillFrom(t, c, 0, n) }

// FillFrom appends the events Fill would number from to from+n-1: a
// history continued after a Fill of from events.
func FillFrom(t testing.TB, c *Cluster, from, n int) {
	t.Helper()
	ctx := context.Background()
	l, err := eventlog.Open(ctx, eventlog.Config{URL: c.NATS.URLs(), Replicas: 3, DataDir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const chunk = 2000 // under the client's 4000 outstanding async publishes
	t0 := time.Now().Add(-time.Duration(from+n) * time.Millisecond)
	for start := from; start < from+n; start += chunk {
		batch := make([]events.Envelope, 0, chunk)
		for i := start; i < min(from+n, start+chunk); i++ {
			e, err := events.New(events.Meta{Source: "fill", Actor: "admin", Time: t0.Add(time.Duration(i) * time.Millisecond)},
				fillPayload(i))
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, e)
		}
		appendChunk(ctx, t, l, batch)
	}
}

func fillPayload(i int) events.Payload {
	u, a := fmt.Sprintf("u%d", i%10_000), fmt.Sprintf("a%d", i%100)
	q := fmt.Sprintf("q%d", i/10)
	label := &events.Label{Agents: []string{a}, Resources: []string{}}
	switch i % 10 {
	case 0, 1, 2:
		return &events.UserAgentGranted{User: u, Agent: a}
	case 3, 4:
		return &events.FragmentWritten{ID: fmt.Sprintf("f%d", i), Key: "k", Value: fmt.Sprintf("fact number %d about the archive", i),
			Tier: events.TierPrivate, User: u, Agents: []string{a}, Resources: []string{}, CreatedAt: time.Now(), Provenance: events.ProvenanceTransitive,
			Policy: events.PolicyTrace{Kind: "simple", Scope: "global"}}
	case 5:
		return &events.QuerySubmitted{ID: q, User: u, Text: "what is in the archive", Channel: "http"}
	case 6:
		return &events.AgentSelected{QueryID: q, User: u, Round: 1, Agent: a, Subquery: "archive", Offered: []string{a}, Label: label}
	case 7:
		return &events.AgentResponded{QueryID: q, User: u, Round: 1, Agent: a, Subquery: "archive", Response: "the archive holds facts",
			Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label}
	case 8:
		return &events.QueryAnswered{QueryID: q, User: u, Answer: "the archive holds facts", Rounds: 1, Agents: []string{a},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label}
	default:
		return &events.AgentResourceGranted{Agent: a, Resource: fmt.Sprintf("r%d", i%1000)}
	}
}

// appendChunk appends batch, retrying a chunk whose acknowledgements do
// not come within a minute (seen on a loaded machine: an async publish
// whose ack is lost leaves AppendBatch waiting for good). Retrying is safe:
// every event carries its id as the message id, so the stream's
// duplicate window drops what was stored already.
func appendChunk(ctx context.Context, t testing.TB, l *eventlog.Log, batch []events.Envelope) {
	t.Helper()
	var err error
	for range 5 {
		actx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err = l.AppendBatch(actx, batch)
		cancel()
		if err == nil {
			return
		}
	}
	t.Fatal(err)
}
