package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/internal/openaiclient"
	"github.com/cmem/cmem/llm"
)

// Defaults of Config.
const (
	DefaultOpenAIBaseURL = openaiclient.DefaultBaseURL
	DefaultOpenAIModel   = "gpt-4o-mini"
	DefaultOpenAITimeout = 60 * time.Second
	DefaultMaxRetries    = 2
	DefaultRetryBackoff  = 500 * time.Millisecond
)

// Config configures the OpenAI-compatible provider. Zero fields take
// the defaults.
type Config struct {
	// BaseURL of the API including the version path, e.g.
	// "http://127.0.0.1:8000/v1" for vLLM. Default DefaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// Model is the chat model. Default DefaultOpenAIModel.
	Model string
	// Temperature of every completion. Zero leaves the server's default:
	// go-openai omits a zero temperature from the request.
	Temperature float32
	// Timeout bounds each HTTP attempt. Default DefaultOpenAITimeout.
	Timeout time.Duration
	// MaxRetries is how often a request is retried after a 429, a 5xx, a
	// network error or an attempt's timeout; never after a done context,
	// a 4xx or a malformed reply. Zero means DefaultMaxRetries, negative
	// means no retries.
	MaxRetries int
	// RetryBackoff is the wait before the first retry, doubled for each
	// further one. Default DefaultRetryBackoff.
	RetryBackoff time.Duration
	// Prompts override the paper's prompts; empty fields keep them.
	Prompts llm.Prompts
	// Names returns the registered user names that "anonymize" replaces,
	// for the rule-based pass after the model's (see Transform).
	Names func() []string
	// HTTPClient is optional; nil uses a fresh http.Client.
	HTTPClient *http.Client
	// Logger is optional; nil uses slog.Default().
	Logger *slog.Logger
}

// WithDefaults returns c with its zero fields filled from the Default*
// constants and llm.DefaultPrompts. A negative MaxRetries stays negative:
// it means no retries.
func (c Config) WithDefaults() Config {
	c.BaseURL = cmp.Or(c.BaseURL, DefaultOpenAIBaseURL)
	c.Model = cmp.Or(c.Model, DefaultOpenAIModel)
	c.Timeout = cmp.Or(c.Timeout, DefaultOpenAITimeout)
	c.MaxRetries = cmp.Or(c.MaxRetries, DefaultMaxRetries)
	c.RetryBackoff = cmp.Or(c.RetryBackoff, DefaultRetryBackoff)
	c.Prompts = c.Prompts.WithDefaults()
	c.Logger = cmp.Or(c.Logger, slog.Default())
	return c
}

// Validate reports every problem of the configuration after defaults are
// applied, joined, each wrapping llm.ErrConfig.
func (c Config) Validate() error {
	c = c.WithDefaults()
	errs := openaiclient.CheckEndpoint(llm.ErrConfig, c.BaseURL, c.Model)
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{llm.ErrConfig}, args...)...))
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		bad("Temperature %v outside 0..2", c.Temperature)
	}
	if c.Timeout < 0 {
		bad("Timeout %s is negative", c.Timeout)
	}
	if c.RetryBackoff < 0 {
		bad("RetryBackoff %s is negative", c.RetryBackoff)
	}
	return errors.Join(errs...)
}

// Provider is the provider for any OpenAI-compatible chat completions
// endpoint. It sends the paper's prompts, asks for JSON where it needs a
// decision or fragments, offers an agent's resources as function tools,
// and validates every reply: an agent or tool the model was not offered is
// never passed through. Every failure wraps llm.ErrProvider.
type Provider struct {
	cfg    Config
	client *goopenai.Client
}

var _ llm.Provider = (*Provider)(nil)

// New validates cfg and returns the provider.
func New(cfg Config) (*Provider, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Provider{cfg: cfg, client: openaiclient.New(cfg.BaseURL, cfg.APIKey, cfg.HTTPClient)}, nil
}

// Name returns "openai:<model>".
func (p *Provider) Name() string { return "openai:" + p.cfg.Model }

// Capabilities reports that the model reads the conversation history and
// not Reach: the coordinator message shows it the history and the agents'
// descriptions only (see coordinatorMessage).
func (p *Provider) Capabilities() llm.Capabilities {
	return llm.Capabilities{ReadsReach: false, ReadsHistory: true}
}

// chat sends one completion request, with retries, and returns the first
// choice's message.
func (p *Provider) chat(ctx context.Context, req goopenai.ChatCompletionRequest) (goopenai.ChatCompletionMessage, error) {
	req.Model = p.cfg.Model
	req.Temperature = p.cfg.Temperature
	var err error
	for attempt := 0; attempt <= max(p.cfg.MaxRetries, 0); attempt++ {
		if attempt > 0 {
			wait := p.cfg.RetryBackoff << (attempt - 1)
			p.cfg.Logger.WarnContext(ctx, "llm: retrying chat completion",
				"model", p.cfg.Model, "attempt", attempt, "wait", wait, "err", err)
			select {
			case <-ctx.Done():
				return goopenai.ChatCompletionMessage{}, fmt.Errorf("%w: %w (after %w)", llm.ErrProvider, ctx.Err(), err)
			case <-time.After(wait):
			}
		}
		var resp goopenai.ChatCompletionResponse
		resp, err = p.once(ctx, req)
		if err == nil {
			if len(resp.Choices) == 0 {
				return goopenai.ChatCompletionMessage{}, fmt.Errorf("%w: openai %s: reply without choices", llm.ErrProvider, p.cfg.Model)
			}
			return resp.Choices[0].Message, nil
		}
		if ctx.Err() != nil || !retryable(err) {
			break
		}
	}
	return goopenai.ChatCompletionMessage{}, fmt.Errorf("%w: openai %s: %w", llm.ErrProvider, p.cfg.Model, err)
}

// chatJSON sends a system and a user message, asking for a JSON object,
// and decodes the reply's object into reply.
func (p *Provider) chatJSON(ctx context.Context, systemText, userText string, reply any) error {
	msg, err := p.chat(ctx, goopenai.ChatCompletionRequest{
		Messages:       []goopenai.ChatCompletionMessage{system(systemText), user(userText)},
		ResponseFormat: jsonObject,
	})
	if err != nil {
		return err
	}
	return decodeJSON(msg.Content, reply)
}

func (p *Provider) once(ctx context.Context, req goopenai.ChatCompletionRequest) (goopenai.ChatCompletionResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	return p.client.CreateChatCompletion(ctx, req)
}

// retryable: rate limits, server errors, network errors and an attempt's
// own timeout. The caller has already ruled out a done parent context.
func retryable(err error) bool {
	var apiErr *goopenai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode == http.StatusTooManyRequests || apiErr.HTTPStatusCode >= 500
	}
	var reqErr *goopenai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode == http.StatusTooManyRequests || reqErr.HTTPStatusCode >= 500
	}
	var urlErr *url.Error
	return errors.As(err, &urlErr) || errors.Is(err, context.DeadlineExceeded)
}

// decodeJSON reads the JSON object of a reply, tolerating the code fences
// and prose some OpenAI-compatible servers wrap around JSON output.
func decodeJSON(content string, v any) error {
	start, end := strings.Index(content, "{"), strings.LastIndex(content, "}")
	if start < 0 || end < start {
		return fmt.Errorf("%w: reply is not a JSON object: %q", llm.ErrProvider, clip(content))
	}
	if err := json.Unmarshal([]byte(content[start:end+1]), v); err != nil {
		return fmt.Errorf("%w: malformed JSON reply %q: %w", llm.ErrProvider, clip(content), err)
	}
	return nil
}

// clip shortens a reply for an error message.
func clip(s string) string { return llm.TruncateWords(s, 200) }

func system(text string) goopenai.ChatCompletionMessage {
	return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleSystem, Content: text}
}

func user(text string) goopenai.ChatCompletionMessage {
	return goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, Content: text}
}

var jsonObject = &goopenai.ChatCompletionResponseFormat{Type: goopenai.ChatCompletionResponseFormatTypeJSONObject}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
