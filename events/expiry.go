package events

import (
	"strconv"
	"time"
)

// UserAgentExpired records that the grant of User -> Agent stored at
// GrantRevision reached its ExpiresAt and the edge ended. Nobody commands
// it: an expirer in every worker and serve process appends it once the
// expiry has passed, with an event id derived from the grant's
// (ExpiredEventID) and only while that grant is still the newest event on
// the edge's subject, so N processes store it once and it can never end a
// later grant. It is a revoke in log order; answers by time use ExpiresAt.
type UserAgentExpired struct {
	User          string    `json:"user"`
	Agent         string    `json:"agent"`
	GrantRevision uint64    `json:"grant_revision"`
	ExpiresAt     time.Time `json:"expires_at"`
}

// AgentResourceExpired is UserAgentExpired for the edge Agent -> Resource.
type AgentResourceExpired struct {
	Agent         string    `json:"agent"`
	Resource      string    `json:"resource"`
	GrantRevision uint64    `json:"grant_revision"`
	ExpiresAt     time.Time `json:"expires_at"`
}

// EventType implements Payload.
func (*UserAgentExpired) EventType() string { return TypeUserAgentExpired }

// EventSubject implements Payload.
func (p *UserAgentExpired) EventSubject() string { return UserAgentSubject(p.User, p.Agent) }

// EventType implements Payload.
func (*AgentResourceExpired) EventType() string { return TypeAgentResourceExpired }

// EventSubject implements Payload.
func (p *AgentResourceExpired) EventSubject() string {
	return AgentResourceSubject(p.Agent, p.Resource)
}

// ExpiredEventID is the event id of the expiry of the grant stored at
// grantRevision on subject: every process computes the same id, so the
// log's deduplication keeps one.
func ExpiredEventID(subject string, grantRevision uint64) string {
	return StepID("expired", subject, strconv.FormatUint(grantRevision, 10))
}
