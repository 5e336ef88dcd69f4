package openai

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/internal/openaiclient"
)

// Defaults of Config.
const (
	DefaultBaseURL   = openaiclient.DefaultBaseURL
	DefaultModel     = "text-embedding-3-small"
	DefaultBatchSize = 128
	DefaultTimeout   = 30 * time.Second
	// maxBatch is the API's limit on inputs per request.
	maxBatch = 2048
)

// knownDims are the native sizes of well-known models, so Dims may be left
// zero for them.
var knownDims = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// Config configures the OpenAI embedder. Zero fields take defaults.
type Config struct {
	// BaseURL of an OpenAI-compatible API including the version path, e.g.
	// "http://127.0.0.1:11434/v1" for Ollama. Default DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// Model is the embedding model. Default DefaultModel.
	Model string
	// Dims is the vector length. Zero means the native size of a known
	// Model; other models must set it. For text-embedding-3 models it is
	// also sent as "dimensions", which those models honour by truncation.
	Dims int
	// BatchSize is the number of texts per request. Default
	// DefaultBatchSize, at most 2048.
	BatchSize int
	// Timeout bounds each request. Default DefaultTimeout.
	Timeout time.Duration
	// HTTPClient is optional; nil uses a fresh http.Client.
	HTTPClient *http.Client
}

// WithDefaults returns c with its zero fields filled from the Default*
// constants; a zero Dims takes the native size of a known Model.
func (c Config) WithDefaults() Config {
	c.BaseURL = cmp.Or(c.BaseURL, DefaultBaseURL)
	c.Model = cmp.Or(c.Model, DefaultModel)
	c.Dims = cmp.Or(c.Dims, knownDims[c.Model])
	c.BatchSize = cmp.Or(c.BatchSize, DefaultBatchSize)
	c.Timeout = cmp.Or(c.Timeout, DefaultTimeout)
	return c
}

// Validate reports every problem of the configuration after defaults are
// applied, joined, each wrapping embedding.ErrConfig.
func (c Config) Validate() error {
	c = c.WithDefaults()
	errs := openaiclient.CheckEndpoint(embedding.ErrConfig, c.BaseURL, c.Model)
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{embedding.ErrConfig}, args...)...))
	}
	if c.Dims <= 0 {
		bad("Dims must be set for model %q", c.Model)
	}
	if c.BatchSize < 1 || c.BatchSize > maxBatch {
		bad("BatchSize %d is outside 1..%d", c.BatchSize, maxBatch)
	}
	if c.Timeout < 0 {
		bad("Timeout %s is negative", c.Timeout)
	}
	return errors.Join(errs...)
}

// Embedder embeds through an OpenAI-compatible /embeddings endpoint. Texts
// are sent in batches of BatchSize, one request after another; blank texts
// are not sent (the API rejects them) and get the zero vector, as with
// Hashing. Returned vectors are checked for count, index and length, and
// L2-normalised, since not every compatible server normalises.
type Embedder struct {
	cfg    Config
	client *goopenai.Client
}

var _ embedding.Embedder = (*Embedder)(nil)

// New validates cfg and returns the embedder.
func New(cfg Config) (*Embedder, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Embedder{cfg: cfg, client: openaiclient.New(cfg.BaseURL, cfg.APIKey, cfg.HTTPClient)}, nil
}

// Model returns "openai:<model>:<dims>".
func (o *Embedder) Model() string { return fmt.Sprintf("openai:%s:%d", o.cfg.Model, o.cfg.Dims) }

// Dims returns the configured vector length.
func (o *Embedder) Dims() int { return o.cfg.Dims }

// RelevanceFloor returns embedding.NoRelevanceFloor: the models behind the
// endpoint vary, and no floor was measured for any of them.
func (o *Embedder) RelevanceFloor() float32 { return embedding.NoRelevanceFloor }

// Embed returns one L2-normalised vector per text, in order. Errors wrap
// embedding.ErrEmbed (and the cause, e.g. context.DeadlineExceeded).
func (o *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var pending []int // indexes of non-blank texts
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, o.cfg.Dims)
			continue
		}
		pending = append(pending, i)
	}
	for start := 0; start < len(pending); start += o.cfg.BatchSize {
		idx := pending[start:min(start+o.cfg.BatchSize, len(pending))]
		batch := make([]string, len(idx))
		for j, i := range idx {
			batch[j] = texts[i]
		}
		vecs, err := o.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

func (o *Embedder) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	req := goopenai.EmbeddingRequestStrings{
		Input:          batch,
		Model:          goopenai.EmbeddingModel(o.cfg.Model),
		EncodingFormat: goopenai.EmbeddingEncodingFormatFloat,
	}
	if strings.HasPrefix(o.cfg.Model, "text-embedding-3") {
		req.Dimensions = o.cfg.Dims
	}
	res, err := o.client.CreateEmbeddings(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", embedding.ErrEmbed, o.cfg.Model, err)
	}
	if len(res.Data) != len(batch) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", embedding.ErrEmbed, len(res.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for _, d := range res.Data {
		if d.Index < 0 || d.Index >= len(batch) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("%w: bad or repeated index %d", embedding.ErrEmbed, d.Index)
		}
		if len(d.Embedding) != o.cfg.Dims {
			return nil, fmt.Errorf("%w: vector of %d dims, want %d", embedding.ErrEmbed, len(d.Embedding), o.cfg.Dims)
		}
		vecs[d.Index] = embedding.Normalize(d.Embedding)
	}
	return vecs, nil
}
