package offline

import "testing"

// What a clause adds to a what question is kept without the words of time
// around it: "last week" and "Monday" set when, not what, so they neither
// start nor end the answer; a name that holds such a word stays whole.
func TestWithoutAskedDropsTimeAtTheEdges(t *testing.T) {
	for _, c := range []struct{ q, clause, want string }{
		{"What damaged Omar's street?", "my street was hit by a nasty storm last week", "hit by a nasty storm"},
		{"What did Omar teach?", "Monday I got to teach a pottery class", "got to a pottery class"},
		{"What did Omar see downtown?", "I saw a banner for Pride Month", "saw a banner for Pride Month"},
	} {
		if got := withoutAsked(c.q, c.clause); got != c.want {
			t.Errorf("withoutAsked(%q, %q) = %q, want %q", c.q, c.clause, got, c.want)
		}
	}
}
