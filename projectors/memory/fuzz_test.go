package memory_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/cmem/cmem/projectors/memory"
)

// FuzzCheckPolicy: any policy an admin may set is accepted or refused with
// ErrPolicyConfig; the config decoder never panics.
func FuzzCheckPolicy(f *testing.F) {
	for _, s := range []struct{ target, kind, cfg string }{
		{"read", "redact", `{"match":"\\d+"}`},
		{"write_shared", "block", `{"match":"secret"}`},
		{"read", "llm", `{"transform":"paraphrase"}`},
		{"provenance", "x", `null`},
		{"write_private", "redact", `{"match":"(","limit":-1}`},
	} {
		f.Add(s.target, s.kind, []byte(s.cfg))
	}
	f.Fuzz(func(t *testing.T, target, kind string, cfg []byte) {
		err := memory.CheckPolicy(target, kind, json.RawMessage(cfg))
		if err != nil && !errors.Is(err, memory.ErrPolicyConfig) {
			t.Fatalf("%s %s %s: %v", target, kind, cfg, err)
		}
	})
}
