package app

import (
	"slices"
	"strings"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
)

// Memory hygiene: what an agent turn writes back to memory.

// worthRemembering reports whether a turn's response is written to memory
// (both tiers): it brought in new knowledge through a resource that
// answered, and it says something. A turn answered from memory alone adds
// nothing memory does not hold; one whose every call failed learned
// nothing; and a reply that says nothing — no information found, an
// error, a refusal, a provider failure (llm.SaysNothing) — would only be
// served back as if it were an answer, to every reader of the tier.
func worthRemembering(resp *events.AgentResponded) bool {
	return resp.Refused == "" && len(resp.Resources) > 0 && !llm.SaysNothing(resp.Response)
}

// memoryEntry is the key and value a remembered response is written
// under: the subquery and the response; or, for a response the provider
// marks Tentative (its support does not state what was asked, so it may
// answer another question), the support and the support — remembered as
// what the source said, never as the answer to the question asked.
func memoryEntry(subquery string, ans llm.AnswerResult) (key, value string) {
	if ans.Tentative && strings.TrimSpace(ans.Support) != "" {
		return ans.Support, ans.Support
	}
	return subquery, ans.Response
}

// citedOf is the fragments a response cites that the turn read: a provider
// cannot cite what it was not shown.
func citedOf(cited, read []string) []string {
	var out []string
	for _, id := range cited {
		if slices.Contains(read, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
