package llm

// Rubric is one criterion of an admission gate (seed 002 §3.1): a memory
// is scored on it within [Min, Max].
type Rubric struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Min         float64 `json:"min"`
	Max         float64 `json:"max"`
}

// ScoreRequest asks for a score range per rubric for one candidate memory
// (its key — the question — and its value — the answer).
type ScoreRequest struct {
	Prompt  string // empty = Prompts.Scorer
	Rubrics []Rubric
	Key     string
	Value   string
}

// RubricScore is the range a scorer gives one rubric (seed 002: "a score
// range for each single rubric", e.g. 3–6).
type RubricScore struct {
	Name string  `json:"name"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// FinalScore is seed 002's Eq. 1: half the sum of every rubric's lowest
// and highest score, S = ½(Σ Lᵢ + Σ Hᵢ).
func FinalScore(scores []RubricScore) float64 {
	var s float64
	for _, r := range scores {
		s += r.Low + r.High
	}
	return s / 2
}

// Clamp puts a scorer's range inside the rubric's bounds, low ≤ high.
func (r Rubric) Clamp(low, high float64) (float64, float64) {
	c := func(v float64) float64 { return min(max(v, r.Min), r.Max) }
	low, high = c(low), c(high)
	if low > high {
		low, high = high, low
	}
	return low, high
}
