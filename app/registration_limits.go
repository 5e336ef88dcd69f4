package app

// Limits on registration texts, mirrored in the event schemas.
const (
	maxDescription  = 8192
	maxSystemPrompt = 65536
)
