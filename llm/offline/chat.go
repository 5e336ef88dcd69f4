package offline

import "strings"

// Chat surrounds what a turn tells with words that only judge or warm it:
// "So far it's been really great!", "The kids loved it", "Wow, that's
// awesome". Such words add nothing a question could ask for beyond how
// something felt, so a sentence made of them and the question's own words
// restates or comments, it does not answer.

// chatWords are words of praise, intensity and courtesy (lower case,
// plurals folded as Tokenize folds them).
var chatWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`really great awesome amazing cool nice fun super totally love loved lovely glad
happy thank thanks wow good wonderful fantastic incredible exciting excited special beautiful sweet proud sure
definitely absolutely blast pretty actually yeah yes oh hey hi far much lot stuff thing`) {
		m[w] = true
	}
	return m
}()
