package app_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// EnvLoCoMo names LoCoMo's data (locomo10.json, or a directory of its
// per-conversation files) for the retrieval measurements; unset, they are
// skipped. They measure, they do not guard: they never run in CI.
const envLoCoMo = "CMEM_LOCOMO"

type locomoTurn struct {
	Speaker, DiaID, Text, Date string
}

type locomoQA struct {
	Question string
	Evidence []string
	Category int
}

type locomoConv struct {
	Name  string
	Turns []locomoTurn
	QA    []locomoQA
}

// loadLoCoMo reads the conversations in the published order (conv-26 first).
func loadLoCoMo(t *testing.T) []locomoConv {
	path := os.Getenv(envLoCoMo)
	if path == "" {
		t.Skipf("set %s to LoCoMo's locomo10.json or its directory of conversations", envLoCoMo)
	}
	var raws []map[string]json.RawMessage
	var names []string
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files, _ := filepath.Glob(filepath.Join(path, "*.json"))
		slices.SortFunc(files, func(a, b string) int { return numOf(a) - numOf(b) })
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			raws, names = append(raws, m), append(names, filepath.Base(f))
		}
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var all []struct {
			SampleID     string                     `json:"sample_id"`
			Conversation map[string]json.RawMessage `json:"conversation"`
			QA           json.RawMessage            `json:"qa"`
		}
		if err := json.Unmarshal(b, &all); err != nil {
			t.Fatal(err)
		}
		for _, c := range all {
			c.Conversation["qa"] = c.QA
			raws, names = append(raws, c.Conversation), append(names, c.SampleID)
		}
	}
	out := make([]locomoConv, len(raws))
	for i, m := range raws {
		out[i].Name = names[i]
		for n := 1; ; n++ {
			s, ok := m["session_"+strconv.Itoa(n)]
			if !ok {
				break
			}
			var date string
			_ = json.Unmarshal(m["session_"+strconv.Itoa(n)+"_date_time"], &date)
			var turns []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
				Caption string `json:"blip_caption"`
			}
			if err := json.Unmarshal(s, &turns); err != nil {
				t.Fatal(err)
			}
			for _, tu := range turns {
				text := tu.Text
				if tu.Caption != "" {
					text += " [shares " + tu.Caption + "]"
				}
				out[i].Turns = append(out[i].Turns, locomoTurn{Speaker: tu.Speaker, DiaID: tu.DiaID, Text: text, Date: date})
			}
		}
		var qas []struct {
			Question string          `json:"question"`
			Evidence []string        `json:"evidence"`
			Category int             `json:"category"`
			Answer   json.RawMessage `json:"answer"`
		}
		if err := json.Unmarshal(m["qa"], &qas); err != nil {
			t.Fatal(err)
		}
		for _, q := range qas {
			if q.Category == 5 { // adversarial: no answer in the conversation
				continue
			}
			var ev []string
			for _, e := range q.Evidence {
				// Some evidence lists hold "D8:6; D9:17" in one string.
				ev = append(ev, strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || r == ' ' })...)
			}
			out[i].QA = append(out[i].QA, locomoQA{Question: q.Question, Evidence: ev, Category: q.Category})
		}
	}
	return out
}

func numOf(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(filepath.Base(path), ".json"))
	return n
}

// recallAt is the share of evidence turns among the first k ranked.
func recallAt(ranked []string, evidence []string, k int) float64 {
	if len(evidence) == 0 {
		return 0
	}
	top := ranked[:min(k, len(ranked))]
	n := 0
	for _, e := range evidence {
		if slices.Contains(top, e) {
			n++
		}
	}
	return float64(n) / float64(len(evidence))
}
