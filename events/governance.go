package events

import "time"

// TypeGovernanceDecided is a governance statement spoken in a conversation
// and what cmem decided about it.
const TypeGovernanceDecided = "cmem.governance.decided"

// GovernanceDecided records one governance statement a turn carried — a
// consent or delegation (grant) or a withdrawal (revoke) — and the
// decision: applied with the speaker's authority over the scope, or
// recorded and ignored, with the reason. It is written whether or not the
// statement was applied, so the audit sees every attempt, and before the
// grant or revocation it causes, which follows it as the ordinary access
// event: replaying the log replays both.
type GovernanceDecided struct {
	// Speaker is who said it (the turn's caller).
	Speaker string `json:"speaker"`
	// Kind is grant or revoke.
	Kind string `json:"kind"`
	// Scope is the governed scope; empty when the statement named none the
	// speaker could mean.
	Scope string `json:"scope"`
	// Principal is the registered user the statement is about; empty when it
	// named none.
	Principal string `json:"principal"`
	// Agents are the scope agents granted or revoked (or that would have
	// been).
	Agents []string `json:"agents"`
	// ExpiresAt is a grant's end, resolved against the turn's time.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	// Applied says whether the access change was made.
	Applied bool `json:"applied"`
	// Reason says why, in words. It names ids and the end, never the
	// turn's words: the turn's content lives only in its fragment, sealed
	// under a key erasure can destroy.
	Reason string `json:"reason"`
}

// EventType implements Payload.
func (*GovernanceDecided) EventType() string { return TypeGovernanceDecided }

// EventSubject implements Payload: under governance/, by speaker, outside
// grants/ (a decision is not an edge; the edge's own event follows it).
func (p *GovernanceDecided) EventSubject() string { return "governance/" + p.Speaker }
