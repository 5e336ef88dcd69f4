package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// composeWant composes question over mem and checks the answer holds
// want and none of avoid.
func composeWant(t *testing.T, question string, mem []llm.MemoryItem, want string, avoid ...string) {
	t.Helper()
	r, ok := composeAnswer(question, mem)
	if !ok {
		t.Fatalf("%q: no answer", question)
	}
	if !strings.Contains(r.Response, want) {
		t.Errorf("%q: answer %q lacks %q", question, r.Response, want)
	}
	for _, a := range avoid {
		if strings.Contains(r.Response, a) {
			t.Errorf("%q: answer %q holds %q", question, r.Response, a)
		}
	}
}

// "The booked visits" are the note's "visit" entries: a plural asks for
// what the notes name in the singular.
func TestComposeReadsAPluralAsItsSingular(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("fees", 1, "The clinic fee schedule was posted at the desk."),
		composeItem("cal", 2, "Calendar: Mon Jun 2 9:00 AM dental visit and Thu Jun 5 2:00 PM x-ray visit."),
		composeItem("card", 3, "The insurance card is on file."),
	}
	composeWant(t, "What are the two visits right now?", mem, "Mon Jun 2 9:00 AM dental visit")
}

// "Booked" and "scheduled" name one thing.
func TestComposeReadsBookedAsScheduled(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("cal", 1, "Scheduled: grooming Tue Jul 8 at 10:00 AM."),
		composeItem("note", 2, "Grooming clippers were sharpened on Jul 9 at 4:00 PM."),
	}
	composeWant(t, "What grooming is booked?", mem, "Tue Jul 8 at 10:00 AM")
}

// "I cannot share the treatment details with you" names what is asked
// and states none of it.
func TestComposeSkipsADecliningReply(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("plan", 1, "Treatment steps: rest, ice packs, and a soft brace for two weeks."),
		composeItem("reply", 2, "I cannot share the treatment steps with you."),
	}
	composeWant(t, "What are the treatment steps?", mem, "ice packs", "cannot share")
}

// "The diet plan is unchanged after the weigh-in" says only that the
// plan stands: the recap that states it answers.
func TestComposeSkipsAnUnchangedNote(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("recap", 1, "Diet recap: two cups of kibble daily, no table scraps."),
		composeItem("same", 2, "The diet plan is unchanged after the weigh-in."),
	}
	composeWant(t, "What is the current diet plan?", mem, "two cups of kibble", "unchanged")
	if saysUnchanged(clause{text: "Legal position is unchanged: fixed term", sentence: "Legal position is unchanged: fixed term", words: composeWords("Legal position is unchanged: fixed term")}) {
		t.Error("a clause that goes on to state the value is taken for an unchanged note")
	}
}

// "Plan" names any kind of thing: the diet recap answers "the diet
// plan", not the grooming plan that holds the word.
func TestComposeWeighsAGenericWordLess(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("diet", 1, "Current diet recap: two cups of kibble daily, no table scraps."),
		composeItem("groom", 2, "Current grooming-plan recap: brush on Mondays at 9:00 AM."),
	}
	composeWant(t, "What is the current diet plan?", mem, "kibble", "brush")
}

// "Besides the ear drops" sets the drops aside: the clause about them
// does not answer.
func TestComposeLeavesOutWhatTheQuestionSetsAside(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("home", 1, "Home care list recap: short walks, soft food, no stairs."),
		composeItem("drops", 2, "Home ear drops recap: two drops nightly in the left ear for 10 days."),
	}
	composeWant(t, "What is the home care list besides the ear drops?", mem, "soft food", "left ear")
}

// A move to a full date answers "the target date" though it never says
// "date".
func TestComposeReadsAFullDateAsADate(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("old", 1, "Kiln target is provisional for now."),
		composeItem("move", 2, "Launch update: the Kiln rollout moves from May 4 to May 18, 2027. May 18 is the new pilot target."),
		composeItem("budget", 3, "Approved Kiln budget is 40,000 EUR."),
	}
	composeWant(t, "What are Kiln's current target date and approved budget?", mem, "May 18, 2027")
}

// "Medication" and "medicine" name one thing.
func TestComposeReadsMedicationAsMedicine(t *testing.T) {
	mem := []llm.MemoryItem{
		composeItem("plan", 1, "Current medication plan: amoxicillin 250 mg twice daily."),
		composeItem("cabinet", 2, "The medicine cabinet was cleaned."),
	}
	composeWant(t, "What is the current medicine plan?", mem, "amoxicillin", "cabinet")
}

// A finance note's "support figure" is its "support amount": the newer
// figure is the current amount, though it does not say "amount".
func TestComposeReadsAFigureAsAnAmount(t *testing.T) {
	mem := composeMem(
		"Finance update: the active private support amount is now 5,120 USD, separate from the public planning line of 5,100 USD.",
		"Current summary note: Idris remains in course-overload review with a target of March 4, 2027.",
		"Release update: the current family-release wording is now narrowed to meeting date only.",
		"Current finance note: the active support figure is 5,160 USD, separate from public 5,100 USD.",
	)
	composeWant(t, "What are the current active support amount, safe label, and current family-release scope for Kestrel Overload?", mem, "5,160 USD", "5,120 USD")
}

// "When does it expire" asks for the note's "expiry": the extended one
// is given.
func TestComposeReadsExpiryAsExpire(t *testing.T) {
	mem := composeMem(
		"Temporary Kestrel lab credential issued for upload work: kst_lab_TMP_4H2Q, active through March 10, 2027 at 18:00 unless a later access note supersedes it.",
		"Ada Moss checked packet routing and repeated that the current review date is still tentative until the signature arrives.",
		"Access update: the current Kestrel credential remains kst_lab_TMP_4H2Q, and its expiry is extended to March 14, 2027 at 18:00 while packet routing finishes.",
	)
	composeWant(t, "What is the current active Kestrel credential, and when does it expire?", mem, "March 14, 2027")
}

// A provisional amount is still the amount when no note states a firmer
// one: a sentence that only says who may discuss the amount names no
// value and does not push it out.
func TestComposeKeepsAProvisionalAmountNoValueReplaced(t *testing.T) {
	mem := composeMem(
		"The exact internal Kestrel Appeal wording in restricted notes is 'household-income appeal'. Outside the core case chain, the safe wording should stay 'fee appeal review' and nothing more specific.",
		"Current provisional Kestrel Appeal support figure on Ida's file is 2,700 USD while the review remains open.",
		"Calendar-safe Kestrel Appeal line: broad wording 'fee appeal review', current date July 9, 2027, and remaining blocker final panel sign-off.",
		"No change to the provisional Kestrel Appeal amount yet. The current figure is still 2,700 USD until the panel posts a final decision.",
		"Only authorized appeal staff should discuss the exact current Kestrel Appeal amount while the review remains open.",
	)
	composeWant(t, "As of now, what are Kestrel Appeal's current date, safe case wording, current support amount, and current blocker?", mem, "2,700 USD")
}
