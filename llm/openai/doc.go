// Package openai is the llm.Provider of any OpenAI-compatible chat
// completions endpoint (OpenAI, vLLM, Ollama, llama.cpp server), through
// go-openai: it sends the paper's prompts (llm.Prompts), offers an agent's
// resources as function tools, asks for JSON where it needs a decision,
// fragments or scores, retries transient failures and validates every
// reply, so that an agent or tool the model was not offered is never
// passed through.
package openai
