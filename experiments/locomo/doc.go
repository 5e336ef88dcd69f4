// Package locomo runs the LoCoMo benchmark (Maharana et al., "Evaluating
// Very Long-Term Conversational Memory of LLM Agents", ACL 2024) against
// cmem through its public HTTP API only: each conversation's speakers
// become users, every turn a shared fragment written by its speaker with
// the session's date, and every question is asked twice, of the memory
// view (evidence recall@k, beside a plain BM25 over the same turns in the
// same run) and as a query (answer F1 by LoCoMo's own scoring rules).
//
// The data (snap-research/locomo, locomo10.json) is licensed for
// non-commercial use and is never vendored: the tests use
// testdata/synthetic.json, a conversation written for them in the same
// format.
package locomo
