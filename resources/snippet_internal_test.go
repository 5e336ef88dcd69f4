package resources

import "testing"

func TestSnippet(t *testing.T) {
	for _, tt := range []struct {
		text string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"  a\n\tb  ", 10, "a b"},
		{"abc def", 7, "abc def"},
		{"abc def", 6, "abc de…"},
		{"abc def", 3, "abc…"},
		{"ééééé", 2, "éé…"},
	} {
		if got := snippet(tt.text, tt.n); got != tt.want {
			t.Errorf("snippet(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}
