// Package offline is the deterministic llm.Provider, cmem's default mode
// when no model is configured: it routes by embedding similarity to agent
// specializations and reach, answers extractively from memory and tool
// results (filling tool arguments from their JSON Schemas and the
// subquery, arithmetic included), writes one key/value fragment per
// interaction with rule-based redaction for the shared tier, transforms
// text by rules (package redact, and a light documented paraphrase) and
// scores memories by documented rules. It owns the sentence and word
// helpers only it uses.
package offline
