package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// PolicyRequest sets the policy of Target at Scope from EffectiveAt (zero
// means now). Config is kind-specific (see package memory).
type PolicyRequest struct {
	Target      string
	Scope       events.PolicyScope
	Kind        string
	Config      json.RawMessage
	EffectiveAt time.Time
}

// SetPolicy is an admin setting a write, read or provenance policy. A policy
// that could not be applied is refused now, not at its first use.
func (a *App) SetPolicy(ctx context.Context, by domain.Identity, req PolicyRequest) (uint64, error) {
	if err := requireAdmin(by); err != nil {
		return 0, err
	}
	if err := memory.CheckPolicy(req.Target, req.Kind, req.Config); err != nil {
		if errors.Is(err, memory.ErrPolicyConfig) {
			return 0, fmt.Errorf("%w: %w", domain.ErrInvalid, err)
		}
		return 0, err
	}
	if req.Target == memory.TargetCoordination && req.Scope.Agent != "" {
		// A query's scheme is chosen before any agent is: only the
		// deployment and the user can scope it.
		return 0, fmt.Errorf("%w: a coordination policy is set for the deployment or a user, not an agent", domain.ErrInvalid)
	}
	if req.Scope.User != "" {
		if err := a.requireRegistered(ctx, "users/", req.Scope.User); err != nil {
			return 0, err
		}
	}
	if req.Scope.Agent != "" {
		if err := a.requireRegistered(ctx, "agents/", req.Scope.Agent); err != nil {
			return 0, err
		}
	}
	if req.EffectiveAt.IsZero() {
		req.EffectiveAt = time.Now()
	}
	return a.append(ctx, by, &events.PolicySet{
		Target: req.Target, Scope: req.Scope, Kind: req.Kind, Config: req.Config, EffectiveAt: req.EffectiveAt.UTC(),
	}, false)
}

// PolicyInfo is one policy setting as the admin API shows it.
type PolicyInfo struct {
	Target      string             `json:"target"`
	Scope       events.PolicyScope `json:"scope"`
	Kind        string             `json:"kind"`
	Config      json.RawMessage    `json:"config,omitempty"`
	EffectiveAt time.Time          `json:"effective_at"`
	Event       string             `json:"event"`
	Revision    uint64             `json:"revision"`
}

// ListPolicies is an admin listing every policy setting ever made, oldest
// first; the one in force for a (user, agent) is the most specific scope's
// latest effective setting.
func (a *App) ListPolicies(ctx context.Context, by domain.Identity) ([]PolicyInfo, error) {
	if err := requireAdmin(by); err != nil {
		return nil, err
	}
	if _, err := a.Snapshot(ctx, 0); err != nil {
		return nil, err
	}
	out := []PolicyInfo{}
	for _, p := range a.policies.List() {
		out = append(out, PolicyInfo{Target: p.Target, Scope: p.Scope, Kind: p.Kind, Config: p.Config,
			EffectiveAt: p.EffectiveAt, Event: p.Event, Revision: p.Revision})
	}
	return out, nil
}
