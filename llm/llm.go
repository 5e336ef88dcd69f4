package llm

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Provider does the jobs the pipeline and the memory policies need.
type Provider interface {
	// Name identifies the provider and model, e.g. "offline-v1" or
	// "openai:gpt-4o-mini"; it is recorded in events.
	Name() string
	// Coordinate picks the next agent and subquery, or stops.
	Coordinate(ctx context.Context, req CoordinateRequest) (Decision, error)
	// Answer runs one agent turn: it sees its memory view and may call the
	// offered tools (through req.Call) before answering.
	Answer(ctx context.Context, req AnswerRequest) (AnswerResult, error)
	// Aggregate merges the (subquery, response) pairs into the answer.
	Aggregate(ctx context.Context, req AggregateRequest) (string, error)
	// Extract turns an interaction into key/value fragments for one tier
	// (the paper's Table 1 prompts).
	Extract(ctx context.Context, req ExtractRequest) ([]KeyValue, error)
	// Transform rewrites text: "redact", "anonymize" or "paraphrase".
	Transform(ctx context.Context, mode, text string) (string, error)
	// Score gives a candidate memory a score range per rubric, for an
	// admission gate (seed 002 §3.1); FinalScore folds them (Eq. 1).
	Score(ctx context.Context, req ScoreRequest) ([]RubricScore, error)
	// Capabilities declares what the coordinator reads of a
	// CoordinateRequest (see Capabilities); it is constant for a provider.
	Capabilities() Capabilities
}

// AgentCard is what the coordinator is shown of an agent: its id, its
// specialization text and one number, nothing else.
type AgentCard struct {
	ID          string
	Description string
	// Reach is how well what the agent can answer from (its resources'
	// content and the memory admissible to (u,a)) matches the query, in
	// [0,1], computed by the pipeline from embeddings; 0 when unknown.
	// It is a number only, never text: nothing the agent could reach is
	// shown to the coordinator, so nothing of it can leak into a decision
	// or an answer the agent was not chosen to give.
	Reach float32
}

// Turn is one earlier (agent, subquery, response) of this query.
type Turn struct {
	Agent    string
	Subquery string
	Response string
}

// HistoryItem is a remembered earlier exchange of the user's conversation.
// Callers pass only items admissible to the user now.
type HistoryItem struct {
	Query  string
	Answer string
}

// CoordinateRequest is the coordinator's input for one round.
type CoordinateRequest struct {
	SystemPrompt string // empty = Prompts.Coordinator
	Query        string
	Agents       []AgentCard // exactly A(u,t)
	Turns        []Turn      // this query so far
	History      []HistoryItem
	Round        int
	MaxRounds    int
}

// RoundsExhausted reports whether MaxRounds (if > 0) is reached: when Round
// passes it or as many turns as MaxRounds were taken, whether callers
// count rounds from 0 or from 1.
func (r CoordinateRequest) RoundsExhausted() bool {
	return r.MaxRounds > 0 && (r.Round > r.MaxRounds || len(r.Turns) >= r.MaxRounds)
}

// Decision is {"agent","subquery"} or {"stop": true}.
type Decision struct {
	Stop     bool   `json:"stop,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Subquery string `json:"subquery,omitempty"`
}

// MemoryItem is one fragment of an agent's memory view.
type MemoryItem struct {
	ID    string
	Key   string
	Value string
	Tier  string
	Score float32
	// ObservedAt is when the fact was observed or is about (the
	// fragment's observed_at; zero when unknown): relative time in Value
	// ("last week") is relative to it.
	ObservedAt time.Time
}

// GraphItem is one item of an agent's graph memory: an insight or an
// utterance of a past query (Kind "insight" or "interaction").
type GraphItem struct {
	ID   string
	Kind string
	Text string
}

// Tool is a resource offered to an agent as a function.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema of the arguments object
}

// ToolCall is one call an agent makes; Result is what the tool returned.
type ToolCall struct {
	Tool      string
	Arguments json.RawMessage
	Result    string
	Err       error
}

// AnswerRequest is one agent turn.
type AnswerRequest struct {
	AgentID      string
	SystemPrompt string
	Subquery     string
	Memory       []MemoryItem
	// Graph is the agent's graph memory: insights and key interactions of
	// similar past queries, shown to a model as guidance. The offline
	// provider does not generate and answers from Memory and tools only.
	Graph []GraphItem
	Tools []Tool // exactly R(a,t)
	// Call runs a tool and returns its result; the provider calls it only
	// for tools in Tools, at most MaxToolCalls times.
	Call         func(ctx context.Context, tool string, args json.RawMessage) (string, error)
	MaxToolCalls int
	// Coverage is the offline provider's threshold: when the best memory
	// item's score reaches it, memory answers and no tool is called.
	Coverage float32
	// Facts asks for the current facts of the memory that matches the
	// question — the current value of each part the question asks, short
	// — rather than one best clause: a record's reader asks for its state
	// ("target date, budget and discount"). The offline provider
	// answers so from memory alone; a model is asked to.
	Facts bool
}

// AnswerResult is an agent's response and the calls it made.
type AnswerResult struct {
	Response string
	Calls    []ToolCall
	// Cited are the ids of the memory items the response was drawn from
	// (its supporting fragments); a response drawn from tool results
	// cites the calls (Calls) instead.
	Cited []string
	// Tentative marks a response whose support does not state everything
	// asked (another word for the attribute, or the nearest sentence).
	// It is given, but remembered as what its support says (Support), not
	// as the answer to the question asked, so that a guess is not served
	// from memory as if it were known.
	Tentative bool
	// Support is the text the response was drawn from (the supporting
	// sentences), when the provider knows it.
	Support string
}

// AggregateRequest is the aggregator's input.
type AggregateRequest struct {
	SystemPrompt string // empty = Prompts.Aggregator
	Query        string
	Turns        []Turn
}

// ExtractRequest asks for fragments for one tier from one interaction.
type ExtractRequest struct {
	Tier     string // "private" or "shared"
	Prompt   string // empty = Prompts.WritePrivate / Prompts.WriteShared
	Query    string
	Response string
	// Users are registered user ids, which a shared extraction removes.
	Users []string
}

// KeyValue is one extracted fragment.
type KeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ErrProvider wraps every failure of a provider (network, bad reply,
// refusal), so callers can end a query cleanly with errors.Is.
var ErrProvider = errors.New("llm: provider failed")
