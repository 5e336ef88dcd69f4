package tracing

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/cmem/cmem/embedding"
)

// Embedder traces and times every call of an embedding.Embedder.
type Embedder struct{ Next embedding.Embedder }

var _ embedding.Embedder = Embedder{}

// Model implements embedding.Embedder.
func (e Embedder) Model() string { return e.Next.Model() }

// Dims implements embedding.Embedder.
func (e Embedder) Dims() int { return e.Next.Dims() }

// Embed implements embedding.Embedder.
func (e Embedder) Embed(ctx context.Context, texts []string) (v [][]float32, err error) {
	start := time.Now()
	ctx, span := StartKind(ctx, "embed", trace.SpanKindClient,
		attribute.String("embedding.model", e.Next.Model()), attribute.Int("embedding.texts", len(texts)))
	defer func() {
		embeddingSeconds.WithLabelValues(e.Next.Model(), outcome(err)).Observe(since(start))
		End(span, err)
	}()
	return e.Next.Embed(ctx, texts)
}

// RelevanceFloor is the wrapped embedder's default memory-view floor
// (app/memory_view.go asks for it), or -1 (no floor) when it has none.
func (e Embedder) RelevanceFloor() float32 {
	if f, ok := e.Next.(interface{ RelevanceFloor() float32 }); ok {
		return f.RelevanceFloor()
	}
	return -1
}
