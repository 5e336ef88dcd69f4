package offline_test

import (
	"testing"

	"github.com/cmem/cmem/embedding/hashing"
	"github.com/cmem/cmem/llm/offline"
)

// The embedder decides two defaults: an aligning one (nil stands for
// semantic, which aligns) takes the aligned route threshold and coverage,
// another the paper's. WithDefaults is idempotent either way.
func TestConfigDefaultsFollowTheEmbedder(t *testing.T) {
	sem := offline.Config{}.WithDefaults()
	if sem.RouteThreshold != offline.DefaultSemanticRouteThreshold || sem.MemoryCoverage != offline.DefaultAlignedCoverage {
		t.Fatalf("nil embedder: %+v", sem)
	}
	hashed := offline.Config{Embedder: hashing.New(0)}.WithDefaults()
	if hashed.RouteThreshold != offline.DefaultRouteThreshold || hashed.MemoryCoverage != offline.DefaultMemoryCoverage {
		t.Fatalf("hashing embedder: %+v", hashed)
	}
	for _, d := range []offline.Config{sem, hashed} {
		if again := d.WithDefaults(); again.RouteThreshold != d.RouteThreshold || again.MemoryCoverage != d.MemoryCoverage ||
			again.MaxSentences != d.MaxSentences || again.StopCoverage != d.StopCoverage {
			t.Fatalf("not idempotent: %+v then %+v", d, again)
		}
	}
}
