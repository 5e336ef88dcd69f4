package locomo

import "os"

// embeddedLabel names what answers in an embedded cmem.
func embeddedLabel() string {
	if os.Getenv("CMEM_OPENAI_BASE_URL") == "" {
		return "embedded cmem, offline model and embedder"
	}
	return "embedded cmem, model " + os.Getenv("CMEM_CHAT_MODEL") + " at CMEM_OPENAI_BASE_URL"
}
