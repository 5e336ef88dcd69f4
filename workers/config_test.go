package workers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/workers"
)

// WithDefaults fills the pipeline's fields and the transport's, leaves its
// receiver alone and changes nothing the second time; a zero Config is
// valid.
func TestConfigDefaults(t *testing.T) {
	var zero workers.Config
	d := zero.WithDefaults()
	if zero != (workers.Config{}) {
		t.Fatalf("WithDefaults mutated its receiver: %+v", zero)
	}
	if d.AckWait != 5*time.Second || d.Group != "cmem" || d.MaxRounds != 4 || d.StageTimeout != time.Minute {
		t.Fatalf("defaults %+v", d)
	}
	if d.WithDefaults() != d {
		t.Fatal("WithDefaults is not idempotent")
	}
	if err := zero.Validate(); err != nil {
		t.Fatalf("zero config: %v", err)
	}
}

// Validate names every problem, the pipeline's and the transport's.
func TestConfigValidateReportsEveryProblem(t *testing.T) {
	err := workers.Config{PipelineConfig: app.PipelineConfig{MaxRounds: 40, KUser: -1}, AckWait: time.Millisecond}.Validate()
	for _, want := range []string{"app: MaxRounds", "app: KUser", "workers: AckWait"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %s", err, want)
		}
	}
}
