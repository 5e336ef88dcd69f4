package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cmem/cmem/embed"
)

// Defaults of OfflineConfig.
const (
	DefaultOfflineDims     = 1024
	DefaultRouteThreshold  = 0.1
	DefaultStopCoverage    = 0.8
	DefaultMemoryCoverage  = 0.6
	DefaultMaxSentences    = 3
	maxKeyRunes            = 200
	offlineProviderVersion = "offline-v1"
)

// OfflineConfig configures the offline provider. Zero fields take the
// defaults.
type OfflineConfig struct {
	// Embedder measures similarity for routing, tool choice and sentence
	// ranking. nil = embed.NewHashing(DefaultOfflineDims): the provider
	// only embeds short texts in process, so it affords more dimensions
	// (fewer hash collisions) than the stored vectors.
	Embedder embed.Embedder
	// RouteThreshold is the least cosine similarity between the part of
	// the query not yet covered and an agent's description for Coordinate
	// to pick that agent. Default DefaultRouteThreshold (the paper's
	// retrieval threshold, App. E.2).
	RouteThreshold float32
	// StopCoverage is the fraction of the query's content words that the
	// responses so far must contain for Coordinate to stop. Default
	// DefaultStopCoverage.
	StopCoverage float64
	// MemoryCoverage replaces AnswerRequest.Coverage when that is zero.
	// Default DefaultMemoryCoverage.
	MemoryCoverage float32
	// MaxSentences bounds an extractive answer. Default DefaultMaxSentences.
	MaxSentences int
	// Names returns the registered user names that "anonymize" replaces
	// with [USER]; nil means none are known.
	Names func() []string
}

func (c *OfflineConfig) setDefaults() {
	if c.Embedder == nil {
		c.Embedder = embed.NewHashing(DefaultOfflineDims)
	}
	if c.RouteThreshold == 0 {
		c.RouteThreshold = DefaultRouteThreshold
	}
	if c.StopCoverage == 0 {
		c.StopCoverage = DefaultStopCoverage
	}
	if c.MemoryCoverage == 0 {
		c.MemoryCoverage = DefaultMemoryCoverage
	}
	if c.MaxSentences == 0 {
		c.MaxSentences = DefaultMaxSentences
	}
}

// Validate reports every problem of the configuration after defaults are
// applied, joined, each wrapping ErrConfig.
func (c OfflineConfig) Validate() error {
	c.setDefaults()
	var errs []error
	if c.RouteThreshold < 0 || c.RouteThreshold > 1 {
		errs = append(errs, fmt.Errorf("%w: RouteThreshold %v outside 0..1", ErrConfig, c.RouteThreshold))
	}
	if c.StopCoverage < 0 || c.StopCoverage > 1 {
		errs = append(errs, fmt.Errorf("%w: StopCoverage %v outside 0..1", ErrConfig, c.StopCoverage))
	}
	if c.MemoryCoverage < 0 || c.MemoryCoverage > 1 {
		errs = append(errs, fmt.Errorf("%w: MemoryCoverage %v outside 0..1", ErrConfig, c.MemoryCoverage))
	}
	if c.MaxSentences < 1 {
		errs = append(errs, fmt.Errorf("%w: MaxSentences %d < 1", ErrConfig, c.MaxSentences))
	}
	return errors.Join(errs...)
}

// Offline is the deterministic provider: cmem's default mode when no model
// endpoint is configured. It does every job without generation, and the
// same inputs give the same outputs on every run:
//
//   - Coordinate routes by similarity of the still-uncovered part of the
//     query to each agent's description (see Coordinate);
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
type Offline struct {
	cfg OfflineConfig
}

var _ Provider = (*Offline)(nil)

// NewOffline validates cfg and returns the provider.
func NewOffline(cfg OfflineConfig) (*Offline, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	return &Offline{cfg: cfg}, nil
}

// Name returns "offline-v1/<embedder model>".
func (o *Offline) Name() string { return offlineProviderVersion + "/" + o.cfg.Embedder.Model() }

// embed embeds texts with the configured embedder; failures wrap
// ErrProvider.
func (o *Offline) embed(ctx context.Context, texts ...string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	v, err := o.cfg.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("%w: offline embed: %w", ErrProvider, err)
	}
	return v, nil
}

// Coordinate picks the next agent. It stops when MaxRounds (if > 0) is
// reached (Round > MaxRounds, or as many turns as MaxRounds taken), when
// every offered agent has already served this query, when the query has
// no content words, when the responses so far contain at least
// StopCoverage of the query's content words, or when no unused agent's
// description (plus the words of its id) reaches RouteThreshold cosine
// similarity with the uncovered part of the query. Otherwise it picks the
// most similar unused agent (ties: the earlier offered), with the query's
// sentences that concern that agent as subquery, or the whole query when
// it is one sentence or none stands out. SystemPrompt and History are not
// used offline.
func (o *Offline) Coordinate(ctx context.Context, req CoordinateRequest) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, fmt.Errorf("%w: %w", ErrProvider, err)
	}
	stop := Decision{Stop: true}
	if roundsExhausted(req) {
		return stop, nil
	}
	used := map[string]bool{}
	var responses []string
	for _, t := range req.Turns {
		used[t.Agent] = true
		responses = append(responses, t.Response)
	}
	var cands []AgentCard
	for _, a := range req.Agents {
		if a.ID != "" && !used[a.ID] {
			cands = append(cands, a)
		}
	}
	words := contentWords(req.Query)
	if len(cands) == 0 || len(words) == 0 {
		return stop, nil
	}
	covered := map[string]bool{}
	for _, w := range contentWords(strings.Join(responses, "\n")) {
		covered[w] = true
	}
	var open []string
	for _, w := range words {
		if !covered[w] {
			open = append(open, w)
		}
	}
	if len(req.Turns) > 0 && float64(len(words)-len(open)) >= o.cfg.StopCoverage*float64(len(words)) {
		return stop, nil
	}
	uncovered := req.Query
	if len(req.Turns) > 0 {
		uncovered = strings.Join(open, " ")
	}
	texts := []string{uncovered}
	for _, a := range cands {
		texts = append(texts, a.Description+" "+idWords(a.ID))
	}
	vecs, err := o.embed(ctx, texts...)
	if err != nil {
		return Decision{}, err
	}
	best, bestScore := -1, float32(0)
	for i := range cands {
		if s := embed.Cosine(vecs[0], vecs[i+1]); best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	if bestScore < o.cfg.RouteThreshold {
		return stop, nil
	}
	sub, err := o.subquery(ctx, req.Query, open, vecs[best+1])
	if err != nil {
		return Decision{}, err
	}
	return Decision{Agent: cands[best].ID, Subquery: sub}, nil
}

// subquery keeps the query's sentences that reach RouteThreshold with the
// agent and still hold an uncovered word; the whole query otherwise.
func (o *Offline) subquery(ctx context.Context, query string, open []string, agent []float32) (string, error) {
	sents := sentences(query)
	if len(sents) < 2 {
		return squash(query), nil
	}
	vecs, err := o.embed(ctx, sents...)
	if err != nil {
		return "", err
	}
	openSet := map[string]bool{}
	for _, w := range open {
		openSet[w] = true
	}
	var keep []string
	for i, s := range sents {
		if embed.Cosine(vecs[i], agent) < o.cfg.RouteThreshold {
			continue
		}
		for _, w := range contentWords(s) {
			if openSet[w] {
				keep = append(keep, s)
				break
			}
		}
	}
	if len(keep) == 0 {
		return squash(query), nil
	}
	return strings.Join(keep, " "), nil
}

// roundsExhausted: MaxRounds (if > 0) is reached when Round passes it or
// as many turns as MaxRounds were taken, whether callers count rounds
// from 0 or from 1.
func roundsExhausted(req CoordinateRequest) bool {
	return req.MaxRounds > 0 && (req.Round > req.MaxRounds || len(req.Turns) >= req.MaxRounds)
}
