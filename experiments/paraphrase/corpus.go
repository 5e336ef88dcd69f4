package paraphrase

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Attribute is one fact every subject has: its domain (the agent whose
// knowledge base holds it), the sentence stating it, and the wordings a
// question may use (each with "%s" for the subject).
type Attribute struct {
	Name      string
	Domain    string
	Fact      string // "%[1]s" subject, "%[2]s" value
	Questions []string
	Values    []string
}

// Domain is an agent: its id, description and the knowledge base it owns.
type Domain struct {
	Agent       string
	Description string
	KB          string
	KBDesc      string
}

// Domains are the agents of the corpus.
var Domains = []Domain{
	{"cuisine", "Answers questions about food, cuisine, dishes and drinks.", "dishes", "regional food and drink of cities"},
	{"demographics", "Answers questions about population, residents and languages spoken.", "census", "census figures of cities"},
	{"history", "Answers questions about history: founding dates, founders and the past.", "annals", "history of cities"},
	{"civic", "Answers questions about local government, mayors and councils.", "townhall", "municipal government of cities"},
	{"climate", "Answers questions about weather, climate and rainfall.", "almanac", "weather records of cities"},
}

// Attributes are the facts of every subject, two per domain.
var Attributes = []Attribute{
	{"dish", "cuisine", "%[1]s is famous for a dish called %[2]s.",
		[]string{"What food is %s famous for?", "Which dish is %s known for?", "What should I eat in %s?"},
		[]string{"quenelles", "francesinha", "raclette", "goulash", "pierogi", "paella", "stroopwafel", "bratwurst", "risotto", "moussaka", "haggis", "borscht"}},
	{"drink", "cuisine", "The favourite drink in %[1]s is %[2]s.",
		[]string{"What do people drink in %s?", "Which beverage is popular in %s?", "What is the favourite drink of %s?"},
		[]string{"cider", "porter", "kvass", "vermouth", "lemonade", "absinthe", "mead", "sherry", "grappa", "ouzo", "sake", "kefir"}},
	{"population", "demographics", "%[1]s has a population of %[2]s inhabitants.",
		[]string{"What is the population of %s?", "How many people live in %s?", "How many residents does %s have?"},
		[]string{"513000", "232000", "96000", "744000", "381000", "129000", "655000", "84000", "417000", "298000", "562000", "173000"}},
	{"language", "demographics", "Most residents of %[1]s speak %[2]s.",
		[]string{"What language is spoken in %s?", "Which language do the people of %s speak?", "What is the main language in %s?"},
		[]string{"Occitan", "Basque", "Catalan", "Flemish", "Frisian", "Breton", "Galician", "Sorbian", "Ladin", "Romansh", "Walloon", "Corsican"}},
	{"founded", "history", "%[1]s was founded in the year %[2]s.",
		[]string{"When was %s founded?", "In what year was %s established?", "What year did the history of %s begin?"},
		[]string{"1043", "1187", "1212", "1265", "1302", "1356", "1410", "1477", "1521", "1588", "1633", "1694"}},
	{"founder", "history", "%[1]s was founded by %[2]s.",
		[]string{"Who founded %s?", "Who established %s?", "Who was the founder of %s?"},
		[]string{"Aldric", "Bertrand", "Casimir", "Dagobert", "Eberhard", "Fulbert", "Gunther", "Hildebrand", "Ingram", "Jocelin", "Konrad", "Leopold"}},
	{"mayor", "civic", "The mayor of %[1]s is %[2]s.",
		[]string{"Who is the mayor of %s?", "Who leads the city government of %s?", "Who is in charge of the municipality of %s?"},
		[]string{"Ortega", "Lindqvist", "Moreau", "Kowalski", "Brandt", "Esposito", "Novak", "Jansen", "Dubois", "Horvat", "Petrov", "Silva"}},
	{"council", "civic", "The city council of %[1]s has %[2]s seats.",
		[]string{"How many seats does the city council of %s have?", "How large is the council of %s?", "How many councillors sit on the council of %s?"},
		[]string{"31", "37", "41", "43", "45", "47", "49", "51", "53", "55", "57", "59"}},
	{"climate", "climate", "%[1]s has a %[2]s climate.",
		[]string{"What is the climate of %s?", "What is the weather like in %s?", "What kind of climate does %s have?"},
		[]string{"oceanic", "alpine", "mediterranean", "continental", "subarctic", "temperate", "maritime", "semiarid", "humid", "steppe", "monsoon", "tundra"}},
	{"rainfall", "climate", "%[1]s gets %[2]s millimetres of rain a year.",
		[]string{"How much rain falls in %s?", "What is the annual rainfall of %s?", "How wet is %s in a year?"},
		[]string{"612", "845", "730", "1020", "560", "940", "1185", "488", "675", "1290", "803", "918"}},
}

// Subjects are the cities of the corpus.
var Subjects = []string{"Lyon", "Porto", "Bergen", "Graz", "Turin", "Ghent", "Krakow", "Seville", "Utrecht", "Leipzig", "Bristol", "Tampere"}

// Question is one question with its ground truth.
type Question struct {
	Text    string
	Subject int
	Attr    int
	Agent   string // the agent holding the answer
	Value   string // what a correct answer contains
	// Repeats: a paraphrase of a question the first user asked, which
	// perfect reuse of shared memory answers without a resource call.
	Repeats bool
}

// Fact is the value of attribute a for subject s (a fixed permutation, so
// values differ between subjects).
func Fact(s, a int) string {
	v := Attributes[a].Values
	return v[(s*7+a*5)%len(v)]
}

// Documents returns the knowledge base of a domain: one document per
// subject holding its facts of that domain.
func Documents(domain string) []map[string]string {
	var docs []map[string]string
	for s, name := range Subjects {
		var sents []string
		for a, at := range Attributes {
			if at.Domain == domain {
				sents = append(sents, fmt.Sprintf(at.Fact, name, Fact(s, a)))
			}
		}
		docs = append(docs, map[string]string{"id": strings.ToLower(name), "text": strings.Join(sents, " ")})
	}
	return docs
}

// Workload is what two users ask: First by the first user; Second by the
// second, of which Overlap are paraphrases of questions in First (same
// subject and attribute, another wording) and the rest new pairs.
type Workload struct {
	First, Second []Question
	Overlap       int
}

// Generate draws a workload of n questions per user, the second user
// repeating the first's (subject, attribute) pairs for overlap·n of them
// in another wording. The same seed gives the same workload.
func Generate(seed uint64, n int, overlap float64) Workload {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	pairs := r.Perm(len(Subjects) * len(Attributes))
	if 2*n > len(pairs) {
		n = len(pairs) / 2
	}
	q := func(pair, wording int) Question {
		s, a := pair/len(Attributes), pair%len(Attributes)
		at := Attributes[a]
		return Question{Text: fmt.Sprintf(at.Questions[wording%len(at.Questions)], Subjects[s]),
			Subject: s, Attr: a, Agent: at.Domain, Value: Fact(s, a)}
	}
	var w Workload
	first := make([]int, n)
	for i := range n {
		first[i] = r.IntN(3)
		w.First = append(w.First, q(pairs[i], first[i]))
	}
	w.Overlap = int(overlap * float64(n))
	for i := range n {
		if i < w.Overlap {
			p := q(pairs[i], first[i]+1+r.IntN(2))
			p.Repeats = true
			w.Second = append(w.Second, p)
		} else {
			w.Second = append(w.Second, q(pairs[n+i], r.IntN(3)))
		}
	}
	r.Shuffle(len(w.Second), func(i, j int) { w.Second[i], w.Second[j] = w.Second[j], w.Second[i] })
	return w
}
