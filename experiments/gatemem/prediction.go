package gatemem

import (
	"strings"
)

// Prediction is one line of GateMem's predictions.jsonl. The top-level
// fields are the documented external format; Output repeats them in the
// shape run_eval.py writes, which is the one whose memory_audit the scorer
// scans for context leaks.
type Prediction struct {
	CheckpointID string      `json:"checkpoint_id"`
	Action       string      `json:"action"`
	Answer       string      `json:"answer"`
	MemoryAudit  MemoryAudit `json:"memory_audit"`
	Output       Output      `json:"output"`
}

// Output is a prediction in run_eval.py's shape.
type Output struct {
	Action           string         `json:"action"`
	Answer           string         `json:"answer"`
	AnswerStructured map[string]any `json:"answer_structured"`
	UsedRecordIDs    []string       `json:"used_record_ids"`
	MemoryAudit      MemoryAudit    `json:"memory_audit"`
}

// MemoryAudit holds what memory was placed before the model or into the
// answer for a checkpoint.
type MemoryAudit struct {
	PromptContext struct {
		Text string `json:"text"`
	} `json:"prompt_context"`
}

// Outcomes are the four actions GateMem scores.
const (
	OutcomeAnswer         = "answer"
	OutcomeAnswerRedacted = "answer_redacted"
	OutcomeRefuse         = "refuse"
	OutcomeNoMemory       = "no_memory"
)

// action is the answer's outcome as the API reports it; an API without one
// is read conservatively: an empty or withheld answer had no memory to give.
func action(ans answer) string {
	switch ans.Outcome {
	case OutcomeAnswer, OutcomeAnswerRedacted, OutcomeRefuse, OutcomeNoMemory:
		return ans.Outcome
	}
	if strings.TrimSpace(ans.Answer) == "" || ans.Withheld != "" {
		return OutcomeNoMemory
	}
	return OutcomeAnswer
}

// newPrediction is the prediction for checkpoint id: the answer exactly as
// the API returned it, and every memory text it shows it used.
func newPrediction(id string, ans answer, shown []string) Prediction {
	var audit MemoryAudit
	audit.PromptContext.Text = strings.Join(shown, "\n")
	act := action(ans)
	return Prediction{
		CheckpointID: id, Action: act, Answer: ans.Answer, MemoryAudit: audit,
		Output: Output{Action: act, Answer: ans.Answer, AnswerStructured: map[string]any{}, UsedRecordIDs: []string{}, MemoryAudit: audit},
	}
}
