package gateway_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/gateway"
)

// New fills a zero Config's fields itself, as the node always did before
// calling it; WithDefaults is idempotent and keeps Limits.Off.
func TestConfigDefaults(t *testing.T) {
	if _, err := gateway.New(gateway.Config{}, nil, nil); err != nil {
		t.Fatalf("New with a zero Config: %v", err)
	}
	d := gateway.Config{QueryWait: 2 * time.Minute}.WithDefaults()
	if d.WriteTimeout != 2*time.Minute+30*time.Second || d.Limits != gateway.DefaultRateLimits() {
		t.Fatalf("defaults %+v", d)
	}
	if d.WithDefaults() != d {
		t.Fatal("WithDefaults is not idempotent")
	}
	if off := (gateway.Config{Limits: gateway.RateLimits{Off: true}}).WithDefaults(); off.Limits != (gateway.RateLimits{Off: true}) {
		t.Fatalf("Off limits became %+v", off.Limits)
	}
}

// Validate names every field in trouble, each in its own message.
func TestConfigValidateReportsEveryProblem(t *testing.T) {
	err := gateway.Config{MaxBodyBytes: -1, QueryWait: time.Minute, WriteTimeout: time.Second, ReadTimeout: -1, IdleTimeout: -1,
		Limits: gateway.RateLimits{Queries: gateway.Rate{PerMinute: 1}, Fragments: gateway.Rate{Burst: -1}}}.Validate()
	for _, want := range []string{"MaxBodyBytes", "WriteTimeout", "ReadTimeout", "IdleTimeout", "rate limit Queries", "rate limit Fragments"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to name %s", err, want)
		}
	}
}
