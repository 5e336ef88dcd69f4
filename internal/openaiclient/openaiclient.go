package openaiclient

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"
)

// DefaultBaseURL is OpenAI's own endpoint, what both adapters call when no
// base URL is configured.
const DefaultBaseURL = "https://api.openai.com/v1"

// CheckEndpoint returns the problems of an endpoint's baseURL (not an
// http(s) URL with a host) and model (blank), in that order, each wrapping
// sentinel; none gives an empty slice.
func CheckEndpoint(sentinel error, baseURL, model string) []error {
	var errs []error
	if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("%w: BaseURL %q is not an http(s) URL", sentinel, baseURL))
	}
	if strings.TrimSpace(model) == "" {
		errs = append(errs, fmt.Errorf("%w: Model is blank", sentinel))
	}
	return errs
}

// New returns a go-openai client of baseURL (trailing slashes dropped,
// since go-openai appends "/embeddings", "/chat/completions", …) that sends
// apiKey as its bearer token (none when empty) through httpClient, or
// go-openai's own client when httpClient is nil.
func New(baseURL, apiKey string, httpClient *http.Client) *goopenai.Client {
	cc := goopenai.DefaultConfig(apiKey)
	cc.BaseURL = strings.TrimRight(baseURL, "/")
	if httpClient != nil {
		cc.HTTPClient = httpClient
	}
	return goopenai.NewClientWithConfig(cc)
}
