package llm

// Capabilities are what a provider declares about the parts of a
// CoordinateRequest it reads. The pipeline asks before it builds the
// request, so it computes only what is read and shows only what is read:
// what a provider is not shown cannot leak into its decisions, nor carry
// its provenance labels into them.
type Capabilities struct {
	// ReadsReach: the coordinator routes by AgentCard.Reach, so the
	// pipeline computes it (embeddings of what every offered agent can
	// reach); a provider that reads only the agents' descriptions is spared
	// the work and gets Reach 0.
	ReadsReach bool
	// ReadsHistory: the coordinator reads CoordinateRequest.History. One
	// that does not is not shown it, so its decisions do not carry the
	// history's labels (which every fragment written afterwards would
	// inherit).
	ReadsHistory bool
}
