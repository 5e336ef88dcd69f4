package graphmem_test

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/projectors/graphmem"
)

// A zero Config is valid; a bad one is refused naming every field.
func TestConfigValidate(t *testing.T) {
	if err := (graphmem.Config{}).Validate(); err != nil {
		t.Fatalf("zero config: %v", err)
	}
	if d := (graphmem.Config{}).WithDefaults(); d.K != 2 || d.M != 3 || d.PerUser != 1000 || d.EdgeThreshold != 0.5 || d.WithDefaults() != d {
		t.Fatalf("defaults %+v", d)
	}
	err := graphmem.Config{K: -1, M: -1, MaxInsights: -2, EdgeThreshold: 2}.Validate()
	for _, want := range []string{"graphmem: K ", "graphmem: M ", "graphmem: MaxInsights", "graphmem: EdgeThreshold"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %q", err, want)
		}
	}
}
