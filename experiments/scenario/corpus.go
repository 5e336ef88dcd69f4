package scenario

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// fact is one piece of ground truth: a knowledge base holds its sentence,
// a query asks for it, and an answer is right when it holds Value.
type fact struct {
	Domain string `json:"domain"`
	Entity string `json:"entity"`
	Attr   string `json:"attribute"`
	Value  string `json:"value"`
}

// Question is the query that asks for f. Every fact of a domain has its
// own attribute where the domain has enough of them, so two questions
// share few words and one fact's memory does not pass for another's.
// The domain's name in brackets is what a user would add to say where to
// look; it routes the question.
func (f fact) Question() string {
	return "What is the " + f.Attr + " of " + f.Entity + " (" + f.Domain + ")?"
}

// Sentence is the knowledge base's text for f.
func (f fact) Sentence() string { return "The " + f.Attr + " of " + f.Entity + " is " + f.Value + "." }

// domain is a knowledge area: an agent specialized in it and a knowledge
// base of its facts.
type domain struct {
	Name        string
	Description string
	Attrs       []string
}

// card is the agent's specialization text: what it knows about, every
// attribute its facts have (the coordinator routes on it).
func (d domain) card() string { return d.Description + ": " + strings.Join(d.Attrs, ", ") }

// The paper's six MultiHop-RAG domains (Scenario 1).
var newsDomains = []domain{
	{"technology", "technology startups", []string{"chip transistor density", "battery capacity", "software release version", "server latency", "patent count", "processor clock speed", "network bandwidth", "cloud uptime", "firmware build number", "sensor resolution"}},
	{"entertainment", "entertainment studios and films", []string{"box office gross", "film runtime", "album sales", "streaming audience", "concert attendance", "soundtrack length", "premiere seating", "casting budget", "episode count", "award nominations"}},
	{"sports", "sports clubs and athletes", []string{"stadium capacity", "season wins", "transfer fee", "marathon time", "league ranking", "goal tally", "training ground acreage", "jersey sponsorship", "playoff appearances", "coaching staff size"}},
	{"science", "science laboratories", []string{"telescope aperture", "isotope half-life", "specimen count", "experiment duration", "microscope magnification", "genome length", "particle energy", "expedition depth", "fossil age", "reactor temperature"}},
	{"business", "business companies", []string{"quarterly revenue", "employee headcount", "merger valuation", "dividend yield", "warehouse footprint", "customer churn", "market capitalization", "franchise count", "loan exposure", "shareholder count"}},
	{"health", "health clinics and hospitals", []string{"vaccine efficacy", "patient wait time", "hospital beds", "trial enrollment", "dosage ceiling", "surgery backlog", "nurse ratio", "ambulance fleet", "pharmacy stock", "clinic opening hour"}},
}

// The five SciQAG categories of Scenario 3 (A1..A5, R1..R5 in Fig. 6).
var scienceDomains = []domain{
	{"chemistry", "analytical chemistry", []string{"detection limit", "retention time", "titration endpoint", "spectral peak", "calibration slope", "solvent ratio"}},
	{"energy", "energy and fuels", []string{"combustion enthalpy", "octane rating", "cell efficiency", "biofuel yield", "turbine output", "grid storage"}},
	{"ceramics", "ceramic materials science", []string{"sintering temperature", "fracture toughness", "grain size", "porosity", "glaze hardness", "kiln shrinkage"}},
	{"paper", "paper and wood materials", []string{"pulp brightness", "fiber length", "tensile index", "lignin content", "moisture regain", "sheet grammage"}},
	{"physics", "mathematical physics", []string{"eigenvalue gap", "coupling constant", "lattice spacing", "soliton speed", "symmetry order", "wave number"}},
}

// namer makes pronounceable made-up names and unique values, so that no
// fact is known to a model in advance and an exact match means the answer
// came through cmem.
type namer struct {
	r      *rand.Rand
	names  map[string]bool
	values map[string]bool
}

func newNamer(seed uint64) *namer {
	return &namer{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), names: map[string]bool{}, values: map[string]bool{}}
}

var (
	onsets = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr", "st", "kl"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "ou"}
)

func (n *namer) word() string {
	var b strings.Builder
	for range 2 + n.r.IntN(2) {
		b.WriteString(onsets[n.r.IntN(len(onsets))])
		b.WriteString(nuclei[n.r.IntN(len(nuclei))])
	}
	b.WriteString([]string{"n", "x", "r", "l", "s"}[n.r.IntN(5)])
	w := b.String()
	return strings.ToUpper(w[:1]) + w[1:]
}

// name is a fresh two-word name.
func (n *namer) name() string {
	for {
		s := n.word() + " " + n.word()
		if !n.names[s] {
			n.names[s] = true
			return s
		}
	}
}

// value is a fresh five-digit number.
func (n *namer) value() string {
	for {
		s := fmt.Sprint(10000 + n.r.IntN(90000))
		if !n.values[s] {
			n.values[s] = true
			return s
		}
	}
}

// facts makes count facts of d, cycling through its attributes.
func (n *namer) facts(d domain, count int) []fact {
	out := make([]fact, count)
	for i := range out {
		out[i] = fact{Domain: d.Name, Entity: n.name(), Attr: d.Attrs[i%len(d.Attrs)], Value: n.value()}
	}
	return out
}

// docs turns facts into knowledge base documents, one per fact.
func docs(facts []fact) []doc {
	out := make([]doc, len(facts))
	for i, f := range facts {
		out[i] = doc{ID: fmt.Sprintf("%s-%d", f.Domain, i), Text: f.Sentence()}
	}
	return out
}

// correct is the exact-match judge: the expected value is in the answer.
func correct(f fact, answer string) bool { return strings.Contains(answer, f.Value) }
