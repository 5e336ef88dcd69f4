package memory

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/cmem/cmem/events"
)

// Policy targets.
const (
	TargetWritePrivate = "write_private"
	TargetWriteShared  = "write_shared"
	TargetRead         = "read"
	TargetProvenance   = "provenance"
	// TargetCoordination chooses how a query's agents work together
	// (seed 004 §3.2): centralized, decentralized, layered or shared_pool.
	TargetCoordination = "coordination"
)

// Coordination schemes (kinds of TargetCoordination).
const (
	CoordinationCentralized   = "centralized"
	CoordinationDecentralized = "decentralized"
	CoordinationLayered       = "layered"
	CoordinationSharedPool    = "shared_pool"
)

// Policy is one PolicySet in force.
type Policy struct {
	Target      string
	Scope       events.PolicyScope
	Kind        string
	Config      json.RawMessage
	EffectiveAt time.Time
	Event       string // id of the PolicySet event; "" for a built-in default
	Revision    uint64
}

// Trace is how the policy is recorded in the events it shapes.
func (p Policy) Trace() events.PolicyTrace {
	return events.PolicyTrace{Kind: p.Kind, Scope: p.Scope.Key(), Event: p.Event}
}

// Defaults are the built-in policies in force where nothing was set:
// verbatim writes, plain reads, transitive provenance.
var Defaults = map[string]Policy{
	TargetWritePrivate: {Target: TargetWritePrivate, Kind: "simple"},
	TargetWriteShared:  {Target: TargetWriteShared, Kind: "simple"},
	TargetRead:         {Target: TargetRead, Kind: "simple"},
	TargetProvenance:   {Target: TargetProvenance, Kind: events.ProvenanceTransitive},
	TargetCoordination: {Target: TargetCoordination, Kind: CoordinationCentralized},
}

// WriteTarget is the write policy target of a tier.
func WriteTarget(tier string) string {
	if tier == events.TierShared {
		return TargetWriteShared
	}
	return TargetWritePrivate
}

// Policies is the projection of PolicySet events. It keeps every setting so
// that the policy in force can be asked for at any time.
type Policies struct {
	mu       sync.RWMutex
	revision uint64
	byKey    map[policyKey][]Policy // sorted by (EffectiveAt, Revision)
}

type policyKey struct {
	target string
	scope  events.PolicyScope
}

// NewPolicies returns an empty projection.
func NewPolicies() *Policies { return &Policies{byKey: map[policyKey][]Policy{}} }

// Name implements projectors.Projection.
func (*Policies) Name() string { return "policies" }

// Apply implements projectors.Projection.
func (ps *Policies) Apply(r events.Record) error {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if r.Revision <= ps.revision {
		return nil
	}
	ps.revision = r.Revision
	if r.Type != events.TypePolicySet {
		return nil
	}
	pl, err := r.Decode()
	if err != nil {
		return err
	}
	p := pl.(*events.PolicySet)
	k := policyKey{p.Target, p.Scope}
	list := ps.byKey[k]
	list = append(list, Policy{
		Target: p.Target, Scope: p.Scope, Kind: p.Kind, Config: p.Config,
		EffectiveAt: p.EffectiveAt, Event: r.ID, Revision: r.Revision,
	})
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].EffectiveAt.Equal(list[j].EffectiveAt) {
			return list[i].EffectiveAt.Before(list[j].EffectiveAt)
		}
		return list[i].Revision < list[j].Revision
	})
	ps.byKey[k] = list
	return nil
}

// Resolve returns the policy for target in force at t for user via agent:
// the most specific scope that has a setting effective at t wins
// (user+agent > user > agent > global); within a scope the latest effective
// setting. Without any, the built-in default.
func (ps *Policies) Resolve(target, user, agent string, t time.Time) Policy {
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	scopes := []events.PolicyScope{{User: user, Agent: agent}, {User: user}, {Agent: agent}, {}}
	for _, s := range scopes {
		list := ps.byKey[policyKey{target, s}]
		i := sort.Search(len(list), func(i int) bool { return list[i].EffectiveAt.After(t) })
		if i > 0 {
			return list[i-1]
		}
	}
	return Defaults[target]
}

// List returns every setting, for the admin API, ordered by revision.
func (ps *Policies) List() []Policy {
	ps.mu.RLock()
	defer ps.mu.RUnlock()
	var out []Policy
	for _, l := range ps.byKey {
		out = append(out, l...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out
}
