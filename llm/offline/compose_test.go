package offline

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/llm"
)

var composeT0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func composeItem(id string, hours int, value string) llm.MemoryItem {
	return llm.MemoryItem{ID: id, Value: value, ObservedAt: composeT0.Add(time.Duration(hours) * time.Hour)}
}

func TestComposeGivesEachAskedPart(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("date", 1, "Recording the Orion target date as May 12, 2026 after the vendor review closed."),
		composeItem("budget", 2, "Approved Orion budget: 88,000 EUR for the full rollout."),
		composeItem("lunch", 3, "Team lunch moved to Friday at noon."),
	}
	r, ok := composeAnswer("What are Orion's current target date and approved budget?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	for _, want := range []string{"May 12, 2026", "88,000 EUR"} {
		if !strings.Contains(r.Response, want) {
			t.Fatalf("answer %q lacks the part %q", r.Response, want)
		}
	}
	if strings.Contains(r.Response, "lunch") {
		t.Fatalf("answer %q holds what was not asked", r.Response)
	}
	if len(r.Cited) != 2 || !slices.Contains(r.Cited, "date") || !slices.Contains(r.Cited, "budget") {
		t.Fatalf("cited %v, want the two fragments each part came from", r.Cited)
	}
}

func TestComposeGivesEachPartSharingAWord(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("budget", 1, "Approved Orion budget is 88,000 EUR."),
		composeItem("discount", 2, "Orion stays approved at a 7% maximum discount."),
	}
	r, ok := composeAnswer("What are Orion's approved budget and approved maximum discount?", mem)
	if !ok || !strings.Contains(r.Response, "88,000 EUR") || !strings.Contains(r.Response, "7%") {
		t.Fatalf("answer %q (ok %v) lacks a part", r.Response, ok)
	}
}

func TestComposeNeverGivesAStaleValue(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("first", 1, "Orion working budget is 95,000 EUR before the vendor decision."),
		composeItem("second", 2, "Approved current Orion budget: 91,000 EUR. That replaces the earlier 95,000 EUR placeholder."),
		composeItem("third", 3, "Approved current Orion budget: 88,000 EUR with the reduced scope. That supersedes the earlier 91,000 EUR figure."),
	}
	r, ok := composeAnswer("What is Orion's current approved budget?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if !strings.Contains(r.Response, "88,000 EUR") {
		t.Fatalf("answer %q lacks the current value", r.Response)
	}
	for _, stale := range []string{"91,000", "95,000"} {
		if strings.Contains(r.Response, stale) {
			t.Fatalf("answer %q gives the stale value %s", r.Response, stale)
		}
	}
	if len(r.Cited) != 1 || r.Cited[0] != "third" {
		t.Fatalf("cited %v, want only the newest fragment", r.Cited)
	}
}

func TestComposeCutsALongSourceToTheClause(t *testing.T) {
	long := "Security review outcome for Orion after a long afternoon of meetings with the vendor, legal and the platform team, " +
		"who walked through every finding in the report one at a time and argued about severity for a while; " +
		"the confirmed root cause is a stale token cache on the ingest workers, and the fix ships with the next patch release " +
		"once the platform team has finished its own regression runs and the vendor has signed off on the change window."
	mem := []llm.MemoryItem{composeItem("long", 1, long)}
	r, ok := composeAnswer("What is the confirmed root cause of the Orion incident?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if n := len(strings.Fields(r.Response)); n > composeMaxWords {
		t.Fatalf("answer has %d words, over %d: %q", n, composeMaxWords, r.Response)
	}
	if !strings.Contains(r.Response, "stale token cache on the ingest workers") {
		t.Fatalf("answer %q lost the clause that answers", r.Response)
	}
	if strings.Contains(r.Response, "afternoon of meetings") {
		t.Fatalf("answer %q kept the clause that does not answer", r.Response)
	}
}

func TestComposeStaysWithinTheLimitForManyParts(t *testing.T) {
	var mem []llm.MemoryItem
	for i, f := range []string{"target date", "budget", "discount", "owner", "vendor", "region"} {
		mem = append(mem, composeItem(f, i, "The current Orion "+f+" was confirmed in the weekly review by finance, legal, sales and the sponsor together as "+
			strings.Repeat("recorded ", 5)+"value"+string(rune('A'+i))+"."))
	}
	r, ok := composeAnswer("What are Orion's target date, budget, discount, owner, vendor and region?", mem)
	if !ok {
		t.Fatal("no answer")
	}
	if n := len(strings.Fields(r.Response)); n > composeMaxWords {
		t.Fatalf("answer has %d words, over %d: %q", n, composeMaxWords, r.Response)
	}
}

func TestComposeAnswersNothingWhenNothingMatches(t *testing.T) {
	mem := []llm.MemoryItem{composeItem("lunch", 1, "Team lunch moved to Friday.")}
	if r, ok := composeAnswer("What is the approved Orion budget?", mem); ok {
		t.Fatalf("nothing matches, yet answered %q", r.Response)
	}
}

func TestAskedPartsSplitsTheQuestion(t *testing.T) {
	got := askedParts("As of now, what are Orion's target date, approved budget, and maximum discount?")
	if len(got) != 3 {
		t.Fatalf("parts %v, want 3", got)
	}
	if got := askedParts("Before the review closes, what is the target date?"); len(got) != 1 || slices.Contains(got[0].words, "review") {
		t.Fatalf("a framing clause is no part: %v", got)
	}
	if got := askedParts("What changed on May 12, 2026?"); len(got) != 1 {
		t.Fatalf("a date's year is no part of its own: %v", got)
	}
}

// TestComposeGivesTheCurrentStatement: a newer clause naming its value
// as past is passed over, "no longer" without a value is a current
// statement, and a value once named as past is not given again by a later
// recap.
func TestComposeGivesTheCurrentStatement(t *testing.T) {
	for _, tc := range []struct {
		name, question, want, not string
		mem                       []llm.MemoryItem
	}{
		{"past", "What is Orion's approved budget?", "88,000", "91,000", []llm.MemoryItem{
			composeItem("current", 1, "Approved Orion budget: 88,000 EUR."),
			composeItem("past", 2, "The earlier approved Orion budget of 91,000 EUR is withdrawn.")}},
		{"no longer", "Are there any major blockers still open for Orion?", "no longer has major blockers", "runbook", []llm.MemoryItem{
			composeItem("open", 1, "The open Orion blockers are the runbook review and the masking pass."),
			composeItem("closed", 2, "Orion no longer has major blockers open.")}},
		{"recap", "What is Orion's approved budget?", "88,000", "91,000", []llm.MemoryItem{
			composeItem("new", 1, "Approved Orion budget is now 88,000 EUR. That supersedes 91,000 EUR."),
			composeItem("recap", 2, "Orion recap: approved budget 91,000 EUR.")}},
	} {
		r, ok := composeAnswer(tc.question, tc.mem)
		if !ok || !strings.Contains(r.Response, tc.want) || strings.Contains(r.Response, tc.not) {
			t.Errorf("%s: answer %q (ok %v): want %q, never %q", tc.name, r.Response, ok, tc.want, tc.not)
		}
	}
}

// TestClauseKeepsTimesWhole fails when a clause is cut at the colon of a
// time or the comma of an amount: "Wednesday March 19 at 1" is no time.
func TestClauseKeepsTimesWhole(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	mem := []llm.MemoryItem{composeItem("visits", 1, "The two current visits are Wednesday March 19 at 1:30 PM biopsy and Monday March 24 at 3:00 PM result call.")}
	r, err := p.Answer(context.Background(), llm.AnswerRequest{Subquery: "What two active appointments remain on the calendar?", Memory: mem, Facts: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Response, "1:30 PM") {
		t.Fatalf("answer %q cuts the time short", r.Response)
	}
	if !strings.Contains(r.Response, "Monday March 24 at 3:00 PM result call") { // the supporting sentence, not its span (factsFromSupport)
		t.Fatalf("answer %q cuts the list short", r.Response)
	}
	if got := clauseRE.Split("Approved budget: 88,000 EUR, signed", -1); len(got) != 3 || got[1] != "88,000 EUR" {
		t.Fatalf("clauses %q, want the amount whole", got)
	}
}

// TestComposeNeverAnswersWithARequest fails when a remembered request for
// the information (which holds every word of the question) is taken for
// its answer, or when, scoring far below, it leaves no clause near.
func TestComposeNeverAnswersWithARequest(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("plan", 1, "The three current plan items are continue levetiracetam 500 mg twice daily, no driving for 6 months, and follow up in 6 weeks."),
		composeItem("ask", 8, "What are the three current plan items after the MRI?"),
		composeItem("mri", 3, "MRI result: no acute lesion seen."),
		composeItem("need", 4, "I only need the three plan items after the MRI, nothing else."),
		composeItem("phone", 5, "Use the direct mobile for callbacks."),
		composeItem("ride", 6, "Her sister drives her home on Friday."),
		composeItem("eeg", 7, "The routine EEG was normal."),
	}
	r, ok := composeAnswer("Please summarize the three current plan items after the MRI.", mem)
	if !ok || !strings.Contains(r.Response, "levetiracetam 500 mg") {
		t.Fatalf("answer %q (ok %v) lacks the plan", r.Response, ok)
	}
	if strings.Contains(r.Response, "What are") || strings.Contains(r.Response, "only need") {
		t.Fatalf("answer %q echoes a request", r.Response)
	}
	if !slices.Equal(r.Cited, []string{"plan"}) {
		t.Fatalf("cited %v, want the plan", r.Cited)
	}
}

// TestPickFallsBackToTheBest fails when a part that some clause matches
// is left unanswered because no clause comes near on both counts.
func TestPickFallsBackToTheBest(t *testing.T) {
	ps := partScores{scores: []float64{4, 1}, own: []float64{1, 8}, best: 4, bestOwn: 8}
	if got := ps.pick(make([]clause, 2)); got != 0 {
		t.Fatalf("pick %d, want the best scoring clause 0", got)
	}
}

// TestCutDropsTheLeadIn fails when a clause longer than its share spends
// its words on the lead-in before its colon instead of the values.
func TestCutDropsTheLeadIn(t *testing.T) {
	text := "Late-stage recap for in-scope staff today: target date July 30, 2026, budget 216,000 USD, discount 8%, contract fixed 12-month"
	got := cutTo(text, 15, map[string]bool{"target": true}, map[string]bool{})
	if !strings.HasPrefix(got, "target date") || !strings.Contains(got, "8%") {
		t.Fatalf("cut %q, want the values without the lead-in", got)
	}
	if got := cutTo("Approved budget: 88,000 EUR", 14, nil, nil); got != "Approved budget: 88,000 EUR" {
		t.Fatalf("cut %q, want a clause within budget whole", got)
	}
}

// TestRequestIsNoStatement fails when a remembered request for the
// information passes for a statement of it, or an owner's statement
// that asks to keep values private is taken for a request.
func TestRequestIsNoStatement(t *testing.T) {
	for s, want := range map[string]bool{
		"Please say the pressure plan one more time so I don't mix it up.": true,
		"Let's review the reasons to call the clinic the same day.":        true,
		"What are the three plan items?":                                   true,
		"I only need the safe high-level line for Summit.":                 true,
		"Please keep my current badge JRX-7810 inside the private file.":   false,
		"The current badge is JRX-7810.":                                   false,
	} {
		if got := requestRE.MatchString(s); got != want {
			t.Errorf("requestRE(%q) = %v, want %v", s, got, want)
		}
	}
}
