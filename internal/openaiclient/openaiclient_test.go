package openaiclient_test

import (
	"errors"
	"testing"

	"github.com/cmem/cmem/internal/openaiclient"
)

var errSentinel = errors.New("config")

func TestCheckEndpoint(t *testing.T) {
	if errs := openaiclient.CheckEndpoint(errSentinel, "http://127.0.0.1:11434/v1", "m"); len(errs) != 0 {
		t.Fatalf("a good endpoint: %v", errs)
	}
	errs := openaiclient.CheckEndpoint(errSentinel, "localhost:8000", " ")
	want := []string{`config: BaseURL "localhost:8000" is not an http(s) URL`, "config: Model is blank"}
	if len(errs) != len(want) {
		t.Fatalf("errs %v, want %q", errs, want)
	}
	for i, err := range errs {
		if !errors.Is(err, errSentinel) || err.Error() != want[i] {
			t.Errorf("error %d: %v, want %q wrapping the sentinel", i, err, want[i])
		}
	}
}
