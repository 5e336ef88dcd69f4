// Package llm owns cmem's language-model provider interface (Provider), the
// Capabilities every provider declares (what its coordinator reads, so the
// pipeline computes and shows only that), its request and response types,
// its errors, the paper's prompts (Prompts, DefaultPrompts) and the fixed
// answers and text helpers every provider shares (NoAgentAnswer,
// NothingRelevantAnswer, Squash, TruncateWords, MaxKeyRunes, Rubric.Clamp,
// FinalScore), and Traced, the decorator that makes every provider call a
// span and an observation of cmem_model_seconds (and every tool an agent
// calls, of cmem_tool_seconds).
//
// The providers live beside it, one subpackage per vendor:
//
//   - llm/offline, the deterministic default, which does every job without
//     generation: routing by similarity to agent specializations,
//     extractive answers from memory and tool results, rule-based fragment
//     extraction and redaction. It is a real operating mode, documented
//     as such, not a test double.
//   - llm/openai, any OpenAI-compatible chat endpoint (OpenAI, vLLM,
//     Ollama, llama.cpp server) through go-openai, with function calling
//     for tools and JSON output for decisions and fragments.
//
// Every provider failure wraps ErrProvider. The behaviour both providers
// share is held by llmtest.RunProviderContract; llmtest also serves a
// scripted OpenAI-compatible HTTP endpoint for tests.
package llm
