// Package llmtest is the test kit of package llm: Server, an
// OpenAI-compatible HTTP endpoint (chat completions and embeddings) whose
// replies come from a script and which records every request it receives;
// Mimic, a scripted stand-in model that understands the OpenAI provider's
// messages; and RunProviderContract, the behaviour every llm.Provider must
// share.
package llmtest
