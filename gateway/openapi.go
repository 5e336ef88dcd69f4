package gateway

import (
	_ "embed" // the OpenAPI document
	"net/http"
	"slices"
)

// OpenAPI is the OpenAPI 3.1 document of contract v1, served at
// GET /openapi.json; a conformance test holds it to the registered routes and
// to the shapes the contract tests send and receive.
//
//go:embed openapi.json
var OpenAPI []byte

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(OpenAPI)
}

// handle registers h on pattern and remembers the pattern for Routes.
func (s *Server) handle(pattern string, h http.Handler) {
	s.patterns = append(s.patterns, pattern)
	s.mux.Handle(pattern, h)
}

// Routes returns the "METHOD /path" patterns the server serves.
func (s *Server) Routes() []string { return slices.Clone(s.patterns) }
