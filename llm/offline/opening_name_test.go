package offline

import "testing"

// A capitalised word that opens a sentence is the weaker name: an
// indefinite pronoun ("Everyone", "Never") is none, a name said inside a
// sentence beats one opening it, and a name used to address the listener
// ("Wow Sam, …") answers no who question.
func TestNameInsideASentenceFirst(t *testing.T) {
	for _, c := range []struct{ q, text, want string }{
		{"Which city is Omar excited to play in?", "Everyone's cheering and getting so excited.", ""},
		{"Which city have Omar and Lena both visited?", "Never been there myself.", ""},
		{"Who is one of Omar's sources of inspiration?", "Books and films fire me up, and Ursula Le Guin most of all.", "Ursula Le Guin"},
		{"Who inspired Lena to start volunteering?", "Wow Sam, your energy is inspiring! I met this amazing woman, Ruth, while volunteering.", "Ruth"},
	} {
		if got := newName(c.q, c.text); got != c.want {
			t.Errorf("newName(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	if got := nearestNewName("Who is one of Omar's sources of inspiration?", "Books are my inspiration, and so is Ursula Le Guin."); got != "Ursula Le Guin" {
		t.Errorf("nearestNewName = %q, want Ursula Le Guin, not the sentence's opening word", got)
	}
	if got := nearestNewName("Who inspired Lena to start volunteering?", "Wow Sam, you inspired me! I met Ruth while volunteering."); got != "Ruth" {
		t.Errorf("nearestNewName = %q, want Ruth, not the one addressed", got)
	}
}
