package embedding

import (
	"context"
	"time"

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
	start := time.Now()
	ctx, span := tracing.StartKind(ctx, "embed", trace.SpanKindClient,
		attribute.String("embedding.model", e.Next.Model()), attribute.Int("embedding.texts", len(texts)))
	defer func() {
		embeddingSeconds.WithLabelValues(e.Next.Model(), tracing.Outcome(err)).Observe(time.Since(start).Seconds())
		tracing.End(span, err)
	}()
	return e.Next.Embed(ctx, texts)
}

// RelevanceFloor is the wrapped embedder's default memory-view floor
// (app/memory_view.go asks for it), or -1 (no floor) when it has none.
func (e Traced) RelevanceFloor() float32 {
	if f, ok := e.Next.(interface{ RelevanceFloor() float32 }); ok {
		return f.RelevanceFloor()
	}
	return -1
}
