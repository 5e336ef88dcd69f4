package embedding

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/internal/tracing"
)

// Traced traces and times every call of an Embedder.
type Traced struct{ Next Embedder }

var _ Embedder = Traced{}

// Model implements Embedder.
func (e Traced) Model() string { return e.Next.Model() }

// Dims implements Embedder.
func (e Traced) Dims() int { return e.Next.Dims() }

// Embed implements Embedder.
func (e Traced) Embed(ctx context.Context, texts []string) (v [][]float32, err error) {
	ctx, done := tracing.Timed(ctx, "embed", trace.SpanKindClient, embeddingSeconds, []string{e.Next.Model()},
		attribute.String("embedding.model", e.Next.Model()), attribute.Int("embedding.texts", len(texts)))
	defer func() { done(err) }()
	return e.Next.Embed(ctx, texts)
}

// RelevanceFloor implements Embedder: the wrapped embedder's, so memory
// views drop the same hits whether or not the embedder is traced.
func (e Traced) RelevanceFloor() float32 { return e.Next.RelevanceFloor() }
