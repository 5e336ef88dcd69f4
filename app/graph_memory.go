package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/graphmem"
)

// GraphMemory is graph memory (implemented by *graphmem.Projection).
type GraphMemory interface {
	Retrieve(ctx context.Context, req graphmem.Request) (graphmem.Result, error)
}

// GraphRequest asks for the graph memory of the caller's query through
// Agent.
type GraphRequest struct {
	Agent       string
	Query       string
	MinRevision uint64
	// QueryID and StepID are set by an agent turn: the read belongs to
	// that query, and its GraphRead event's id is stable.
	QueryID, StepID string
}

// GraphMemoryAnswer is graph memory for one query, checked against the
// access graphs at GraphRevision; Revision is where its GraphRead event
// was stored.
type GraphMemoryAnswer struct {
	Revision      uint64 `json:"revision"`
	GraphRevision uint64 `json:"graph_revision"`
	graphmem.Result
}

// GraphMemory serves the caller's graph memory through Agent (paper 003
// Eq. 4–8): past queries similar to Query and their 1-hop neighbours,
// the insights distilled from them (Agent's role first), and their key
// interactions — each only while its provenance is admissible to
// (caller, Agent, now), on graphs that include every acknowledged revoke —
// and recorded as a GraphRead event.
func (a *App) GraphMemory(ctx context.Context, by domain.Identity, req GraphRequest) (GraphMemoryAnswer, error) {
	if by.ID == AdminID {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: the bootstrap admin is not a user and has no graph memory", domain.ErrForbidden)
	}
	if err := events.CheckID(req.Agent); err != nil {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: agent: %w", domain.ErrInvalid, err)
	}
	if strings.TrimSpace(req.Query) == "" || len(req.Query) > MaxQueryBytes {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: query must be non-empty and at most %d bytes", domain.ErrInvalid, MaxQueryBytes)
	}
	snap, err := a.Snapshot(ctx, req.MinRevision)
	if err != nil {
		return GraphMemoryAnswer{}, err
	}
	return a.graphAt(ctx, by, req, snap)
}

// graphAt serves graph memory on a snapshot the caller took: an agent turn
// reads it on the snapshot it decides on.
func (a *App) graphAt(ctx context.Context, by domain.Identity, req GraphRequest, snap Snapshot) (GraphMemoryAnswer, error) {
	if a.graph == nil {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: graph memory is not configured", domain.ErrUnavailable)
	}
	now := snap.Point()
	if !a.view.CanInvoke(by.ID, req.Agent, now) {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: %s may not invoke agent %s", domain.ErrForbidden, by.ID, req.Agent)
	}
	reader := access.Reader{User: by.ID, Agent: req.Agent}
	res, err := a.graph.Retrieve(ctx, graphmem.Request{User: by.ID, Agent: req.Agent, Query: req.Query,
		Admit: func(l events.Label) bool {
			return a.view.Admits(reader, access.Provenance{Agents: l.Agents, Resources: l.Resources}, now).OK
		}})
	if err != nil {
		return GraphMemoryAnswer{}, fmt.Errorf("%w: graph memory: %w", domain.ErrUnavailable, err)
	}
	ans := GraphMemoryAnswer{GraphRevision: snap.Revision, Result: res}
	read := &events.GraphRead{User: by.ID, Agent: req.Agent, Query: req.Query, QueryID: req.QueryID,
		Insights: []string{}, Queries: []string{}, Interactions: []string{}, GraphRevision: snap.Revision}
	var labels []events.Label
	for _, in := range res.Insights {
		read.Insights, labels = append(read.Insights, in.ID), append(labels, in.Provenance)
	}
	for _, q := range res.Queries {
		read.Queries, labels = append(read.Queries, q.ID), append(labels, q.Provenance)
	}
	for _, it := range res.Interactions {
		read.Interactions, labels = append(read.Interactions, it.ID), append(labels, it.Provenance)
	}
	read.Label = events.Union(labels...)
	// Judged at the snapshot's clock, as the memory view's read is.
	if ans.Revision, err = a.appendAt(ctx, by, read, req.StepID, snap.Clock); err != nil {
		return GraphMemoryAnswer{}, err
	}
	return ans, nil
}
