package rerank_test

import (
	"fmt"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/rerank"
)

// BenchmarkLearn measures one admitted fragment's lesson (BM25 over the
// pool, labels, the gradient step) on a pool of 10k shared fragments.
func BenchmarkLearn(b *testing.B) {
	m, err := rerank.New(rerank.Config{})
	if err != nil {
		b.Fatal(err)
	}
	var rev uint64
	apply := func(p events.Payload) {
		e, err := events.New(events.Meta{Source: "b", Actor: "u"}, p)
		if err != nil {
			b.Fatal(err)
		}
		rev++
		if err := m.Apply(events.Record{Envelope: e, Revision: rev}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 10_000 {
		apply(frag(fmt.Sprint("p", i), fmt.Sprintf("topic %d question about place %d", i%300, i%97),
			fmt.Sprintf("answer %d mentions item %d and thing %d", i, i%113, i%71), false, "x"))
	}
	b.ResetTimer()
	for i := range b.N {
		apply(frag(fmt.Sprint("m", i), fmt.Sprintf("topic %d question about place %d", i%300, i%97),
			fmt.Sprintf("item %d and thing %d", i%113, i%71), true, "x"))
	}
}
