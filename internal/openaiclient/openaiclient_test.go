package openaiclient_test

import (
	"errors"
	"net/url"
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

// TestDefaultBaseURLIsOpenAIs: the default endpoint is OpenAI's API host
// (an import-alias rename once turned it into a host that does not exist).
func TestDefaultBaseURLIsOpenAIs(t *testing.T) {
	u, err := url.Parse(openaiclient.DefaultBaseURL)
	if err != nil || u.Scheme != "https" || u.Host != "api.openai.com" || u.Path != "/v1" {
		t.Errorf("DefaultBaseURL %q, want OpenAI's https endpoint /v1", openaiclient.DefaultBaseURL)
	}
}
