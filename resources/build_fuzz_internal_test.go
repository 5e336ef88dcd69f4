package resources

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzBuild: any kind and configuration an admin may register either
// builds or fails with ErrConfig; it never panics.
func FuzzBuild(f *testing.F) {
	for _, s := range []struct{ kind, cfg string }{
		{"http", `{"url":"http://x","headers":{"X-A":"b","X-Api-Key":{"env":"CMEM_SECRET_A"}}}`},
		{"http", `{"url":"ftp://x"}`},
		{"knowledge_base", `{"documents":[{"id":"d","text":"t"}]}`},
		{"computation", `{}`},
		{"http", `{"url":"http://x","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}`},
	} {
		f.Add(s.kind, []byte(s.cfg))
	}
	f.Fuzz(func(t *testing.T, kind string, cfg []byte) {
		if !json.Valid(cfg) {
			return
		}
		_, err := Build("r", kind, "d", json.RawMessage(cfg), Options{LookupEnv: func(string) (string, bool) { return "", false }})
		if err != nil && !errors.Is(err, ErrConfig) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("%s %s: %v", kind, cfg, err)
		}
	})
}
