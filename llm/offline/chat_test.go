package offline

import "testing"

// A turn that restates the question is answered by the neighbour that
// tells something, not by the one that only praises: without chatWords,
// "So far it's been really great!" adds as many words as "Last month I
// signed up for a pottery class." and, following, wins the tie.
func TestCommentIsNotTheAnsweringNeighbour(t *testing.T) {
	cands := []rankedSentence{
		{text: "Dana: Last month I signed up for a pottery class.", pos: 0, id: "t1"},
		{text: "Dana: I wanted to slow down and have a hobby away from screens.", pos: 1, id: "t1"},
		{text: "Dana: So far it's been really great!", pos: 2, id: "t1"},
	}
	q := "What did Dana do to slow down and have a hobby away from screens?"
	if got := answeringNeighbour(q, cands[1], cands); got.pos != 0 {
		t.Fatalf("answeringNeighbour = %q, want the sentence that tells what she did", got.text)
	}
	if n := novelWords(q, cands[2].text); n != 0 {
		t.Fatalf("novelWords(%q) = %d, want 0: praise adds nothing asked", cands[2].text, n)
	}
}

// A sentence that restates a what question but quotes the title asked
// for answers it: the quotation is the answer, not the next sentence.
func TestQuotedTitleIsNotARestatement(t *testing.T) {
	cands := []rankedSentence{
		{text: `Ravi: I just finished rereading "Dune", it left me inspired.`, pos: 0, id: "t1"},
		{text: "Ravi: It made me think about my own plans for next year.", pos: 1, id: "t1"},
	}
	q := "What book did Ravi just finish rereading that left him inspired?"
	if got := answeringNeighbour(q, cands[0], cands); got.pos != 0 {
		t.Fatalf("answeringNeighbour = %q, want the sentence quoting the title", got.text)
	}
}
