package snapshot_test

import (
	"testing"
	"time"

	"github.com/cmem/cmem/projectors/snapshot"
)

// WithDefaults fills zero fields only: a negative Every or MinPeriod
// ("none") survives it, however often it is applied.
func TestConfigDefaults(t *testing.T) {
	d := snapshot.Config{}.WithDefaults()
	if d.Every != snapshot.DefaultEvery || d.MinPeriod != snapshot.DefaultMinPeriod || d.Keep != snapshot.DefaultKeep {
		t.Fatalf("defaults %+v", d)
	}
	none := snapshot.Config{Every: -1, MinPeriod: -time.Second}
	if got := none.WithDefaults().WithDefaults(); got.Every != -1 || got.MinPeriod != -time.Second {
		t.Fatalf("negative fields became %+v", got)
	}
	if (snapshot.Config{}).Validate() != nil || (snapshot.Config{Keep: -1}).Validate() == nil {
		t.Fatal("Validate accepts Keep < 0 or refuses the zero config")
	}
}
