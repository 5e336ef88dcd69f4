package app_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/embedding/semantic"
	"github.com/cmem/cmem/events"
)

// plain is the semantic embedder without its word vectors: a view built
// on it has the first stage only.
type plain struct{ embedding.Embedder }

// BenchmarkViewRescoring times a memory view of 10 over 2,000 turns of 20
// words (50 episodes) with the first stage only and with the second
// (word-by-word matching and episodes over 80 hits), the turns of an
// episode observed at one instant (no turn after another) or 30 s apart
// (the view also reads the turns after its best hit, rescore_near.go):
// compare the ns/op of one run, not absolute times.
func BenchmarkViewRescoring(b *testing.B) {
	words := strings.Fields(`family trip camping beach mountain dog cat painting pottery music guitar school class teacher
friend party birthday garden flowers cooking recipe dinner running marathon book novel library movie concert
job interview office project team coach game basketball soccer tournament charity volunteer shelter adoption`)
	for _, mode := range []struct {
		name    string
		emb     embedding.Embedder
		spacing time.Duration
	}{{"first-stage", plain{semantic.Must()}, 0}, {"rescored", semantic.Must(), 0}, {"rescored-ordered", semantic.Must(), 30 * time.Second}} {
		b.Run(mode.name, func(b *testing.B) {
			r := newRigOn(b, mode.emb, nil)
			world(b, r)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 2000 {
				var text []string
				for range 20 {
					text = append(text, words[rng.IntN(len(words))])
				}
				at := time.Date(2024, 1, 1+i/40, 12, 0, 0, 0, time.UTC).Add(time.Duration(i%40) * mode.spacing)
				if _, err := r.app.WriteFragment(ctx, domain.Identity{ID: "bob"}, app.WriteRequest{Agent: "y", Tier: events.TierShared,
					Key: fmt.Sprintf("Bob: note %d", i), Value: "Bob: " + strings.Join(text, " "), ObservedAt: at}); err != nil {
					b.Fatal(err)
				}
			}
			req := app.ViewRequest{Agent: "y", Query: "Where did Bob go camping with his family?", KCross: 10}
			for b.Loop() {
				if _, err := r.app.MemoryView(ctx, domain.Identity{ID: "bob"}, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
