package offline

// "The current medicine plan", "the callback plan", "the schedule
// recap": a record's notes call many different things a plan, a recap, a
// list or an update, so these words say little about which thing a
// clause states. Beside a word that names the thing ("medicine") they
// weigh a quarter: "Current callback-plan recap: …" must not answer "the
// medicine plan" over "Current medicine recap: …".

// genericWeight is the share of its weight a generic word keeps.
const genericWeight = 0.25

// genericWords are the stems (factWords) of the words notes use for any
// kind of thing.
var genericWords = map[string]bool{
	"plan": true, "recap": true, "list": true, "update": true, "detail": true, "item": true, "info": true, "inform": true,
}

// wordWeight is w's weight in a clause's score: idf[w], less for a
// generic word.
func wordWeight(w string, idf map[string]float64) float64 {
	if genericWords[w] {
		return genericWeight * idf[w]
	}
	return idf[w]
}
