package events

import (
	"encoding/json"
	"time"
)

// Roles a user can have. Admins may register entities and change grants.
const (
	RoleUser  = "user"
	RoleAdmin = "admin"
)

// UserRegistered records a new user. Only the SHA-256 of the user's bearer
// token is kept: the log never holds a credential.
type UserRegistered struct {
	ID          string `json:"id"`
	Role        string `json:"role"`
	TokenSHA256 string `json:"token_sha256"`
}

// AgentRegistered records a new agent and its specialization text, the only
// thing about it a coordinator is shown.
type AgentRegistered struct {
	ID           string `json:"id"`
	Description  string `json:"description"`
	SystemPrompt string `json:"system_prompt,omitempty"`
}

// ResourceRegistered records a new resource; Config holds the kind-specific
// fields (e.g. the documents of a knowledge_base).
type ResourceRegistered struct {
	ID          string          `json:"id"`
	Kind        string          `json:"kind"`
	Description string          `json:"description"`
	Config      json.RawMessage `json:"config,omitempty"`
}

// UserAgentGranted adds the edge User -> Agent to G_UA. A non-nil ExpiresAt
// ends the edge at that instant with no further command; nil grants it
// until revoked. A later grant of the same edge replaces the expiry.
type UserAgentGranted struct {
	User      string     `json:"user"`
	Agent     string     `json:"agent"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// UserAgentRevoked removes the edge User -> Agent from G_UA.
type UserAgentRevoked struct {
	User  string `json:"user"`
	Agent string `json:"agent"`
}

// AgentResourceGranted adds the edge Agent -> Resource to G_AR, until
// ExpiresAt if it is set (see UserAgentGranted).
type AgentResourceGranted struct {
	Agent     string     `json:"agent"`
	Resource  string     `json:"resource"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// AgentResourceRevoked removes the edge Agent -> Resource from G_AR.
type AgentResourceRevoked struct {
	Agent    string `json:"agent"`
	Resource string `json:"resource"`
}

// EventType implements Payload.
func (*UserRegistered) EventType() string { return TypeUserRegistered }

// EventSubject implements Payload.
func (p *UserRegistered) EventSubject() string { return "users/" + p.ID }

// EventType implements Payload.
func (*AgentRegistered) EventType() string { return TypeAgentRegistered }

// EventSubject implements Payload.
func (p *AgentRegistered) EventSubject() string { return "agents/" + p.ID }

// EventType implements Payload.
func (*ResourceRegistered) EventType() string { return TypeResourceRegistered }

// EventSubject implements Payload.
func (p *ResourceRegistered) EventSubject() string { return "resources/" + p.ID }

// EventType implements Payload.
func (*UserAgentGranted) EventType() string { return TypeUserAgentGranted }

// EventSubject implements Payload.
func (p *UserAgentGranted) EventSubject() string { return UserAgentSubject(p.User, p.Agent) }

// EventType implements Payload.
func (*UserAgentRevoked) EventType() string { return TypeUserAgentRevoked }

// EventSubject implements Payload.
func (p *UserAgentRevoked) EventSubject() string { return UserAgentSubject(p.User, p.Agent) }

// EventType implements Payload.
func (*AgentResourceGranted) EventType() string { return TypeAgentResourceGranted }

// EventSubject implements Payload.
func (p *AgentResourceGranted) EventSubject() string {
	return AgentResourceSubject(p.Agent, p.Resource)
}

// EventType implements Payload.
func (*AgentResourceRevoked) EventType() string { return TypeAgentResourceRevoked }

// EventSubject implements Payload.
func (p *AgentResourceRevoked) EventSubject() string {
	return AgentResourceSubject(p.Agent, p.Resource)
}

// Subject prefixes of the access graphs. Every event that can narrow what
// someone may see lives under GrantsSubjectPrefix, which is what read fences
// wait on.
const (
	GrantsSubjectPrefix = "grants/"
	UsersSubjectPrefix  = "users/"
)

// UserAgentSubject is the subject of every event about the edge user -> agent.
func UserAgentSubject(user, agent string) string { return "grants/user-agent/" + user + "/" + agent }

// AgentResourceSubject is the subject of every event about the edge agent -> resource.
func AgentResourceSubject(agent, resource string) string {
	return "grants/agent-resource/" + agent + "/" + resource
}
