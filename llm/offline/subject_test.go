package offline

import (
	"strings"
	"testing"
)

// Asked what a named person does, the answer is said of them: the
// speaker's "I'm" does not open it, nor is their "my" in it. Fails
// without withoutSpeaker, and the last case without its possessive rule.
func TestAnswerDropsTheSpeakersSubject(t *testing.T) {
	got := kindAsk(t, "What has Ada been doing to help her neighbourhood?",
		"Ada: I'm volunteering at the food bank every Saturday morning, it's tiring.")
	if strings.HasPrefix(strings.ToLower(got), "i") || !strings.Contains(got, "volunteering") {
		t.Fatalf("answer %q, want the clause without its first-person subject", got)
	}
	if got := withoutSpeaker("I'm, we went camping"); got != "I'm, went camping" {
		t.Fatalf("withoutSpeaker = %q: a part left empty stays whole", got)
	}
	// The speaker's possessive goes too: the grandmother is the asked one's.
	if got := withoutSpeaker("baking with my grandmother"); got != "baking with grandmother" {
		t.Fatalf("withoutSpeaker = %q, want the speaker's possessive dropped", got)
	}
	// The speaker as object or second subject, and fillers, go; a
	// contraction inside the part stays whole.
	if got := withoutSpeaker("mom and I just love sailing with me"); got != "mom and love sailing with" {
		t.Fatalf("withoutSpeaker = %q, want the speaker and the filler dropped", got)
	}
	if got := withoutSpeaker("glad I'm home"); got != "glad I'm home" {
		t.Fatalf("withoutSpeaker = %q, want a contraction inside kept", got)
	}
}
