package offline

// A reader asks in their own words: "the safe customer description"
// for the note's "safe customer wording", "the diagnosis" for "the root
// cause" or "the current suspicion", "the contact number" for "the callback number", "the support amount"
// for "the support figure". The composer
// matches by word, so the few words an organisation's notes and its
// readers use for the same thing are read as one.

// sameThing maps a word's stem (factWords) to the stem it is read as.
var sameThing = map[string]string{
	"descri": "wordin", // description
	"phrasi": "wordin", // phrasing
	"phrase": "wordin",
	"label":  "wordin", // safe label ~ safe wording
	"creden": "code",   // credential ~ code ~ token
	"token":  "code",
	"cause":  "diagno", // root cause
	"suspic": "diagno", // suspicion, suspected
	"hypoth": "diagno", // hypothesis
	"theory": "diagno",
	"callba": "contac", // callback
	"phone":  "contac",
	"booked": "schedu", // booked ~ scheduled
	"medica": "medici", // medication ~ medicine
	"figure": "amount", // support figure ~ support amount
	"expiry": "expire", // its expiry ~ when it expires
	"expira": "expire", // expiration
}

// composeWords returns the factWords of s, each read as the word it
// means (sameThing).
func composeWords(s string) []string {
	words := factWords(s)
	for i, w := range words {
		if to, ok := sameThing[w]; ok {
			words[i] = to
		}
	}
	return words
}
