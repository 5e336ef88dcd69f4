package locomo

import "time"

// Record is one question's outcome, a line of the -out JSONL for failure
// analysis.
type Record struct {
	Conversation string   `json:"conversation"`
	Index        int      `json:"index"`
	Question     string   `json:"question"`
	Category     int      `json:"category"`
	CategoryName string   `json:"category_name"`
	Gold         string   `json:"gold"`
	Adversarial  string   `json:"adversarial_answer,omitempty"`
	Evidence     []string `json:"evidence"`
	// Hits is the memory view's shared tier, best first, each with the
	// dialog id the harness wrote it for ("" for a fragment it did not
	// write, such as a stored answer).
	Hits []Hit `json:"cmem_hits"`
	// BM25 is the baseline's ranking: dialog ids, best first.
	BM25 []string `json:"bm25_hits"`
	// Recall holds evidence recall by system and depth: "cmem@5",
	// "bm25@10", …; absent for a question without evidence.
	Recall map[string]float64 `json:"recall,omitempty"`
	// Answer is the query's answer; Status "answered" or "failed", Error
	// why, Cited the dialog ids of the fragments it read.
	Answer        string   `json:"answer"`
	Status        string   `json:"status,omitempty"`
	Error         string   `json:"error,omitempty"`
	Cited         []string `json:"cited,omitempty"`
	ResourceCalls int      `json:"resource_calls"`
	// F1 is the answer's score by LoCoMo's rules for its category (for
	// category 5: 1 when the answer says the conversation does not tell).
	F1       float64 `json:"f1"`
	ViewMS   float64 `json:"view_ms"`
	AnswerMS float64 `json:"answer_ms,omitempty"`
}

// Hit is one fragment of a memory view.
type Hit struct {
	Fragment string   `json:"fragment"`
	DiaID    string   `json:"dia_id"`
	Score    *float32 `json:"score,omitempty"`
	Value    string   `json:"value"`
	// ObservedAt is the time the server holds for the fragment's fact.
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// Recall is LoCoMo's evidence recall of one ranked list at depth k: the
// share of the evidence's dialog ids among its first k entries.
func Recall(evidence, ranked []string, k int) float64 {
	if len(evidence) == 0 {
		return 0
	}
	top := map[string]bool{}
	for _, id := range ranked[:min(k, len(ranked))] {
		top[id] = true
	}
	n := 0
	for _, e := range evidence {
		if top[e] {
			n++
		}
	}
	return float64(n) / float64(len(evidence))
}
