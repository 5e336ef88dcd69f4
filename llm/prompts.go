package llm

import (
	"cmp"
	"fmt"
	"strings"
)

// Transform modes.
const (
	ModeRedact     = "redact"
	ModeAnonymize  = "anonymize"
	ModeParaphrase = "paraphrase"
)

// Memory tiers an Extract writes for.
const (
	TierPrivate = "private"
	TierShared  = "shared"
)

// MaxKeyRunes is the longest fragment key a provider's Extract writes, in
// runes; longer keys are cut at a word.
const MaxKeyRunes = 200

// NoAgentAnswer is the aggregate answer when no agent responded; the
// paper's wording (App. D.3.2, Table 11).
const NoAgentAnswer = "No agents were able to process the query."

// NothingRelevantAnswer is the answer when the coordinator found no agent
// relevant to the query among those it considered (A(u,t)): it says so and
// names them, so the user knows the question was read and whom to ask
// for access. With no agent at all it is NoAgentAnswer.
func NothingRelevantAnswer(considered []string) string {
	if len(considered) == 0 {
		return NoAgentAnswer
	}
	return fmt.Sprintf("None of your agents has information relevant to this question (considered: %s).",
		strings.Join(considered, ", "))
}

// Prompts are the system prompts of the generative provider. Requests that
// carry their own prompt (CoordinateRequest.SystemPrompt, ...) override
// them per call; the output-format instructions the provider relies on
// (JSON shapes) are sent separately and cannot be overridden away.
type Prompts struct {
	// Coordinator routes a query to agents (paper Table 8).
	Coordinator string
	// Aggregator merges the agents' outputs (paper Table 8).
	Aggregator string
	// Agent is the system prompt of an agent registered without one; it is
	// the memory-first instruction every agent prompt of the paper ends
	// with (Tables 3, 7 and 16).
	Agent string
	// WritePrivate and WriteShared are the write-policy prompts of the two
	// memory tiers (paper Table 1).
	WritePrivate string
	WriteShared  string
	// Redact, Anonymize and Paraphrase are the Transform prompts, one per
	// mode. The paper names the transformations but prints no prompts;
	// these are cmem's.
	Redact     string
	Anonymize  string
	Paraphrase string
	// Scorer grades a candidate memory on rubrics for an admission gate
	// (seed 002, App. A.5).
	Scorer string
}

// DefaultPrompts returns the paper's prompts (App. B.2 Table 1, App. D
// Table 8; Table 17 is the same coordinator with "scientific knowledge
// system" wording) and cmem's transform prompts. The paper's text is kept
// word for word; only the line breaks of its numbered list, lost in the
// typeset table, are restored.
func DefaultPrompts() Prompts {
	return Prompts{
		Coordinator: "You are a coordinator for a specialized multi-agent system. Your job is to analyze user " +
			"queries and determine which specialized agent is best suited to handle each query or sub-query.\n" +
			"For each query:\n" +
			"1. Identify the primary domain(s) of the query\n" +
			"2. Select the most appropriate specialized agent based on their expertise areas.\n" +
			"3. For complex queries that span multiple domains, determine if sequential agent consultation is needed\n" +
			"4. When reformulating queries for specific agents, emphasize aspects relevant to their expertise\n" +
			"5. When the task is complete, respond with COMPLETE",
		Aggregator: "You are an aggregator for a multi-agent system. Combine outputs from multiple specialized " +
			"agents into a single, direct, and coherent response to the user query.",
		Agent: "Always check relevant memories first. When those are insufficient, use the available tools. " +
			"Prioritize information from memories and tools.",
		WritePrivate: "Extract key concepts from interactions that would be useful for the specific user. Focus " +
			"on creating standalone memories that capture core information. Format each memory as a clear " +
			"key-value pair where the key is a concise query or topic and the value is a comprehensive answer " +
			"or explanation.",
		WriteShared: "Extract generally applicable knowledge from interactions that would benefit any user. " +
			"Focus on creating shareable memories that contain universal information. Remove any user-specific " +
			"details or personalized examples. Format each memory as a clear key-value pair where the key is a " +
			"concise query or topic and the value is a comprehensive answer or explanation.",
		Redact: "Rewrite the text the user sends, replacing every e-mail address with [EMAIL], every phone " +
			"number with [PHONE], every payment card number with [CARD] and every bank account number or IBAN " +
			"with [IBAN]. Change nothing else. Reply with the rewritten text only.",
		Anonymize: "Rewrite the text the user sends so that no person can be identified from it: replace names " +
			"of people and user identifiers with [USER], e-mail addresses with [EMAIL], phone numbers with " +
			"[PHONE], payment card numbers with [CARD] and account numbers with [IBAN], and drop other details " +
			"that single out a person. Keep all other information. Reply with the rewritten text only.",
		Paraphrase: "Paraphrase the text the user sends in neutral third-person wording. Keep every fact, " +
			"figure and name exactly; do not add anything. Reply with the paraphrase only.",
		Scorer: "Here are the rubrics for grading a (prompt, answer) pair. According to the rubrics, for each " +
			"rubric give a score range for the current pair, such as 3-6 (3 is the lowest score and 6 is the " +
			"highest score), within the rubric's bounds.",
	}
}

// WithDefaults fills the empty fields of p from DefaultPrompts.
func (p Prompts) WithDefaults() Prompts {
	d := DefaultPrompts()
	p.Coordinator = cmp.Or(p.Coordinator, d.Coordinator)
	p.Aggregator = cmp.Or(p.Aggregator, d.Aggregator)
	p.Agent = cmp.Or(p.Agent, d.Agent)
	p.WritePrivate = cmp.Or(p.WritePrivate, d.WritePrivate)
	p.WriteShared = cmp.Or(p.WriteShared, d.WriteShared)
	p.Redact = cmp.Or(p.Redact, d.Redact)
	p.Anonymize = cmp.Or(p.Anonymize, d.Anonymize)
	p.Paraphrase = cmp.Or(p.Paraphrase, d.Paraphrase)
	p.Scorer = cmp.Or(p.Scorer, d.Scorer)
	return p
}
