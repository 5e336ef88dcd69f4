package locomo

import (
	"slices"
	"testing"
	"time"
)

func TestLoadShippedConversation(t *testing.T) {
	cs, err := Load("testdata/synthetic.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 {
		t.Fatalf("%d conversations", len(cs))
	}
	c := cs[0]
	if c.ID != "synthetic-1" || c.SpeakerA != "Ana" || c.SpeakerB != "Bruno" || len(c.Sessions) != 3 || len(c.QA) != 11 {
		t.Fatalf("conversation %+v", c)
	}
	if want := time.Date(2024, 4, 20, 9, 30, 0, 0, time.UTC); !c.Sessions[1].When.Equal(want) {
		t.Errorf("session 2 at %v, want %v", c.Sessions[1].When, want)
	}
	if tr := c.Sessions[0].Turns[4]; tr.DiaID != "D1:5" || tr.Caption == "" {
		t.Errorf("turn with an image: %+v", tr)
	}
	cats := map[int]int{}
	for _, q := range c.QA {
		cats[q.Category]++
	}
	for cat := 1; cat <= 5; cat++ {
		if cats[cat] == 0 {
			t.Errorf("no question of category %d", cat)
		}
	}
	if q := c.QA[9]; q.Answer != "2024" {
		t.Errorf("a numeric answer reads %q, want 2024", q.Answer)
	}
	if q := c.QA[8]; !slices.Equal(q.Evidence, []string{"D2:4", "D3:5"}) {
		t.Errorf("two ids in one evidence string: %v", q.Evidence)
	}
	if q := c.QA[7]; q.Answer != "" || q.Adversarial != "Pepper" {
		t.Errorf("adversarial: %+v", q)
	}
}

// The multimodal release keeps the conversation at the top level of each
// sample file.
func TestParseFlatSample(t *testing.T) {
	flat := `{"speaker_a":"A","speaker_b":"B","session_2_date_time":"1:00 pm on 2 May, 2023",
	"session_2":[{"speaker":"B","dia_id":"D2:1","text":"later"}],
	"session_1_date_time":"1:00 pm on 1 May, 2023","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi"}],
	"session_3_date_time":"1:00 pm on 3 May, 2023",
	"qa":[{"question":"q","answer":"x","evidence":["D1:1"],"category":4}]}`
	cs, err := Parse([]byte(flat), "26")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].ID != "26" || len(cs[0].Sessions) != 2 || cs[0].Sessions[0].N != 1 || len(cs[0].QA) != 1 {
		t.Fatalf("%+v", cs)
	}
	if _, err := Parse([]byte(`{"qa":[]}`), "x"); err == nil {
		t.Error("a sample without speakers parsed")
	}
}

func TestParseDate(t *testing.T) {
	if got := ParseDate("12:09 am on 13 September, 2023"); !got.Equal(time.Date(2023, 9, 13, 0, 9, 0, 0, time.UTC)) {
		t.Errorf("got %v", got)
	}
	if !ParseDate("sometime").IsZero() {
		t.Error("free text parsed")
	}
}

func TestSelection(t *testing.T) {
	for s, want := range map[string][]int{"": {0, 1, 2}, "0-1": {0, 1}, "2,0": {2, 0}, "1-9": {1, 2}} {
		if got, err := selection(s, 3); err != nil || !slices.Equal(got, want) {
			t.Errorf("selection(%q) = %v %v, want %v", s, got, err, want)
		}
	}
	for _, bad := range []string{"x", "3-1", "-2"} {
		if _, err := selection(bad, 3); err == nil {
			t.Errorf("selection(%q) accepted", bad)
		}
	}
}
