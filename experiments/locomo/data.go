package locomo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Conversation is one LoCoMo sample: two speakers, their sessions in
// order, and the questions asked about them.
type Conversation struct {
	ID                 string
	SpeakerA, SpeakerB string
	Sessions           []Session
	QA                 []QA
}

// Session is one dated chat between the two speakers.
type Session struct {
	N int
	// Date is the session's date as the data gives it ("1:56 pm on 8 May,
	// 2023"); When is it parsed, zero when it does not parse.
	Date  string
	When  time.Time
	Turns []Turn
}

// Turn is one utterance. Caption is the BLIP caption of the image the
// speaker shared with it, if any.
type Turn struct {
	DiaID   string
	Speaker string
	Text    string
	Caption string
}

// QA is one question with its gold answer and evidence (dialog ids).
// Adversarial questions (category 5) carry the misleading answer in
// Adversarial and usually no Answer.
type QA struct {
	Question    string
	Answer      string
	Adversarial string
	Evidence    []string
	Category    int
}

// Load reads the conversations of path: a file (locomo10.json, a JSON
// array of samples; or one sample, nested or flat as in the multimodal
// release) or a directory of such files, read in name order.
func Load(path string) ([]Conversation, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	files := []string{path}
	if st.IsDir() {
		files, err = filepath.Glob(filepath.Join(path, "*.json"))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("locomo: no *.json file in %s", path)
		}
	}
	var out []Conversation
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("locomo: %w", err)
		}
		cs, err := Parse(b, strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			return nil, fmt.Errorf("locomo: %s: %w", f, err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// rawSample is a sample of locomo10.json; a flat sample has the
// conversation's keys at the top level beside "qa".
type rawSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []rawQA                    `json:"qa"`
}

type rawQA struct {
	Question    string          `json:"question"`
	Answer      json.RawMessage `json:"answer"`
	Adversarial json.RawMessage `json:"adversarial_answer"`
	Evidence    []string        `json:"evidence"`
	Category    int             `json:"category"`
}

type rawTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
	Caption string `json:"blip_caption"`
}

// Parse reads one file's conversations; name identifies a sample that has
// no sample_id.
func Parse(b []byte, name string) ([]Conversation, error) {
	var samples []json.RawMessage
	if err := json.Unmarshal(b, &samples); err != nil {
		samples = []json.RawMessage{b}
	}
	var out []Conversation
	for i, raw := range samples {
		var s rawSample
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("sample %d: %w", i, err)
		}
		if s.Conversation == nil { // flat: the conversation is the sample
			if err := json.Unmarshal(raw, &s.Conversation); err != nil {
				return nil, fmt.Errorf("sample %d: %w", i, err)
			}
		}
		id := s.SampleID
		if id == "" {
			id = name
			if len(samples) > 1 {
				id = fmt.Sprintf("%s-%d", name, i)
			}
		}
		c, err := convert(id, s)
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", id, err)
		}
		out = append(out, c)
	}
	return out, nil
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

func convert(id string, s rawSample) (Conversation, error) {
	c := Conversation{ID: id}
	_ = json.Unmarshal(s.Conversation["speaker_a"], &c.SpeakerA)
	_ = json.Unmarshal(s.Conversation["speaker_b"], &c.SpeakerB)
	if c.SpeakerA == "" || c.SpeakerB == "" {
		return c, fmt.Errorf("no speaker_a or speaker_b")
	}
	for k, v := range s.Conversation {
		m := sessionKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		var turns []rawTurn
		if err := json.Unmarshal(v, &turns); err != nil {
			return c, fmt.Errorf("%s: %w", k, err)
		}
		ses := Session{N: n}
		_ = json.Unmarshal(s.Conversation[k+"_date_time"], &ses.Date)
		ses.When = ParseDate(ses.Date)
		for _, t := range turns {
			ses.Turns = append(ses.Turns, Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.Text, Caption: t.Caption})
		}
		if len(ses.Turns) > 0 {
			c.Sessions = append(c.Sessions, ses)
		}
	}
	slices.SortFunc(c.Sessions, func(a, b Session) int { return a.N - b.N })
	for _, q := range s.QA {
		c.QA = append(c.QA, QA{Question: q.Question, Answer: scalar(q.Answer), Adversarial: scalar(q.Adversarial),
			Evidence: EvidenceIDs(q.Evidence), Category: q.Category})
	}
	return c, nil
}

// scalar is a JSON answer as Python's str() would print it: a string as
// is, a number in its digits (LoCoMo has answers like 2022).
func scalar(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

var diaID = regexp.MustCompile(`D\d+:\d+`)

// EvidenceIDs extracts the dialog ids of a question's evidence; a few
// LoCoMo entries hold two ids in one string ("D8:6; D9:17").
func EvidenceIDs(ev []string) []string {
	var out []string
	for _, e := range ev {
		for _, id := range diaID.FindAllString(e, -1) {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// ParseDate parses LoCoMo's session dates ("1:56 pm on 8 May, 2023"),
// zero when the text is in another form.
func ParseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006", "3:04 PM on 2 January, 2006", "2 January, 2006", "2 January 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
