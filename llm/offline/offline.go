package offline

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/llm"
)

// Defaults of Config.
const (
	DefaultRouteThreshold = 0.1
	DefaultReachWeight    = 0.5
	DefaultStopCoverage   = 0.8
	DefaultMemoryCoverage = 0.6
	// DefaultAlignedCoverage is MemoryCoverage's default with an aligning
	// embedder, whose scores run lower than view cosines: chosen on the
	// paraphrase benchmark (package paraphrase).
	DefaultAlignedCoverage = 0.5
	// DefaultSemanticRouteThreshold is RouteThreshold's default with an
	// aligning (semantic) embedder, whose cosines between unrelated short
	// texts reach about 0.13.
	DefaultSemanticRouteThreshold = 0.15
	DefaultAnswerFloor            = 0.3
	DefaultMaxSentences           = 3
	offlineProviderVersion        = "offline-v1"
)

// Config configures the offline provider. Zero fields take the
// defaults.
type Config struct {
	// Embedder measures similarity for routing, tool choice and sentence
	// ranking. nil = semantic.New(), the word-vector embedder shipped in
	// the binary. An embedder with an Align(query, text) float32 method
	// (semantic has one) also decides which sentences and which memory
	// items answer a question; with another, cosine similarity does.
	Embedder embedding.Embedder
	// RouteThreshold is the least cosine similarity between the part of
	// the query not yet covered and an agent's description for Coordinate
	// to pick that agent (the score Coordinate describes). Default
	// DefaultSemanticRouteThreshold with an aligning embedder, else
	// DefaultRouteThreshold (the paper's retrieval threshold, App. E.2).
	RouteThreshold float32
	// ReachWeight is how much an agent's Reach counts next to its
	// description (see Coordinate). Default DefaultReachWeight.
	ReachWeight float32
	// StopCoverage is the fraction of the query's content words that the
	// responses so far must contain for Coordinate to stop. Default
	// DefaultStopCoverage.
	StopCoverage float64
	// MemoryCoverage replaces AnswerRequest.Coverage when that is zero.
	// Default DefaultAlignedCoverage with an aligning embedder (the
	// default), else DefaultMemoryCoverage.
	MemoryCoverage float32
	// AnswerFloor is the least alignment (Align) of a sentence with the
	// subquery for it to be part of an answer, when the embedder aligns.
	// Default DefaultAnswerFloor.
	AnswerFloor float32
	// MaxSentences bounds an extractive answer. Default DefaultMaxSentences.
	MaxSentences int
	// Names returns the registered user names that "anonymize" replaces
	// with [USER]; nil means none are known.
	Names func() []string
}

// A nil Embedder stands for semantic.New(), which aligns: WithDefaults
// relies on it.
var _ aligner = (*semantic.Embedder)(nil)

// WithDefaults returns c with its zero fields filled from the Default*
// constants; RouteThreshold and MemoryCoverage take their aligned defaults
// when the embedder aligns, as a nil one (semantic) does. A nil Embedder
// stays nil: New builds the semantic one, which can fail.
func (c Config) WithDefaults() Config {
	route, coverage := float32(DefaultRouteThreshold), float32(DefaultMemoryCoverage)
	if _, aligns := c.Embedder.(aligner); aligns || c.Embedder == nil {
		route, coverage = DefaultSemanticRouteThreshold, DefaultAlignedCoverage
	}
	c.RouteThreshold = cmp.Or(c.RouteThreshold, route)
	c.ReachWeight = cmp.Or(c.ReachWeight, DefaultReachWeight)
	c.AnswerFloor = cmp.Or(c.AnswerFloor, DefaultAnswerFloor)
	c.StopCoverage = cmp.Or(c.StopCoverage, DefaultStopCoverage)
	c.MemoryCoverage = cmp.Or(c.MemoryCoverage, coverage)
	c.MaxSentences = cmp.Or(c.MaxSentences, DefaultMaxSentences)
	return c
}

// Validate reports every problem of the configuration after defaults are
// applied, joined, each wrapping llm.ErrConfig.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.RouteThreshold < 0 || c.RouteThreshold > 1 {
		errs = append(errs, fmt.Errorf("%w: RouteThreshold %v outside 0..1", llm.ErrConfig, c.RouteThreshold))
	}
	if c.ReachWeight < 0 || c.ReachWeight > 1 {
		errs = append(errs, fmt.Errorf("%w: ReachWeight %v outside 0..1", llm.ErrConfig, c.ReachWeight))
	}
	if c.AnswerFloor < 0 || c.AnswerFloor > 1 {
		errs = append(errs, fmt.Errorf("%w: AnswerFloor %v outside 0..1", llm.ErrConfig, c.AnswerFloor))
	}
	if c.StopCoverage < 0 || c.StopCoverage > 1 {
		errs = append(errs, fmt.Errorf("%w: StopCoverage %v outside 0..1", llm.ErrConfig, c.StopCoverage))
	}
	if c.MemoryCoverage < 0 || c.MemoryCoverage > 1 {
		errs = append(errs, fmt.Errorf("%w: MemoryCoverage %v outside 0..1", llm.ErrConfig, c.MemoryCoverage))
	}
	if c.MaxSentences < 1 {
		errs = append(errs, fmt.Errorf("%w: MaxSentences %d < 1", llm.ErrConfig, c.MaxSentences))
	}
	return errors.Join(errs...)
}

// Provider is the deterministic provider: cmem's default mode when no model
// endpoint is configured. It does every job without generation, and the
// same inputs give the same outputs on every run:
//
//   - Coordinate routes by similarity of the still-open part of the
//     query to each agent's description and by the agent's Reach (see
//     Coordinate);
//   - Answer answers from memory when memory covers the subquery, else
//     calls the most relevant tool, and answers extractively;
//   - Aggregate joins the responses without repeating sentences;
//   - Extract writes the interaction as one key/value fragment, with
//     rule-based redaction for the shared tier;
//   - Transform redacts and anonymizes by rules (package redact) and
//     "paraphrases" by a light, documented rewrite.
//
// It cannot reason across sources, resolve references or summarise; its
// answers are sentences taken from memory and tool results.
type Provider struct {
	cfg Config
}

var _ llm.Provider = (*Provider)(nil)

// New validates cfg and returns the provider.
func New(cfg Config) (*Provider, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Embedder == nil {
		e, err := semantic.New()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", llm.ErrConfig, err)
		}
		cfg.Embedder = e
	}
	return &Provider{cfg: cfg}, nil
}

// Name returns "offline-v1/<embedder model>".
func (o *Provider) Name() string { return offlineProviderVersion + "/" + o.cfg.Embedder.Model() }

// embed embeds texts with the configured embedder; failures wrap
// llm.ErrProvider.
func (o *Provider) embed(ctx context.Context, texts ...string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", llm.ErrProvider, err)
	}
	v, err := o.cfg.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("%w: offline embed: %w", llm.ErrProvider, err)
	}
	return v, nil
}

// Capabilities reports that the offline coordinator reads Reach and no
// history.
//
// It decides on the query, the agents and this query's turns only, so the
// pipeline need not show it the conversation history, and its decisions do
// not carry the history's provenance labels (which would make every
// fragment written afterwards inherit the provenance of everything the
// user asked before).
//
// It routes by AgentCard.Reach, so the pipeline computes it (a model that
// reads only the agents' descriptions is spared the work).
func (o *Provider) Capabilities() llm.Capabilities {
	return llm.Capabilities{ReadsReach: true, ReadsHistory: false}
}
