package offline

import (
	"strings"
	"testing"
)

// A caption chosen to answer a question whose head it does not show
// (captionAnswers false) still answers with what the image shows, never
// with the words about sharing it. Fails without the caption's object
// replacing the sentence in clause.
func TestCaptionAnswersWithoutTheSharingWords(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	al := p.cfg.Embedder.(aligner)
	got := p.clause(al, nil, "What did Ana bring back from her week at the coast?", "Ana: [shared a photo of a jar of sea glass on a windowsill]")
	if strings.Contains(got, "shared") || !strings.Contains(got, "sea glass") {
		t.Fatalf("clause = %q, want what the photo shows", got)
	}
}
