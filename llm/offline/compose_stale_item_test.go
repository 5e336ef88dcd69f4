package offline

import (
	"strings"
	"testing"

	"github.com/cmem/cmem/llm"
)

// TestStaleValueKeepsTheRecapsOtherItems fails when a recap holding one
// value a later note names as past is dropped whole, losing its current
// statement that states no value ("contract no longer auto-renews"), or
// when the recap's other values are kept as if current.
func TestStaleValueKeepsTheRecapsOtherItems(t *testing.T) {
	items := []itemAt{
		{id: "new", value: "Finance update: the approved budget is now 216,000 USD and supersedes the earlier 224,000 USD figure."},
		{id: "old", value: "Operating bundle: launch target July 12, budget 224,000 USD, discount cap 9%, contract no longer auto-renews."},
	}
	cls := clausesOf(items)
	marksStale(cls)
	var kept *clause
	for i := range cls {
		if cls[i].id == "old" && !cls[i].stale {
			kept = &cls[i]
		}
	}
	if kept == nil {
		t.Fatalf("the recap was dropped whole: %+v", cls)
	}
	if !strings.Contains(kept.text, "contract no longer auto-renews") {
		t.Fatalf("kept %q, want its current item", kept.text)
	}
	for _, v := range []string{"224,000", "9%", "July 12"} {
		if strings.Contains(kept.text, v) || strings.Contains(kept.sentence, v) {
			t.Fatalf("kept %q (sentence %q) still states %s", kept.text, kept.sentence, v)
		}
	}
	mem := []llm.MemoryItem{composeItem("new", 2, items[0].value), composeItem("old", 1, items[1].value)}
	got, _ := composeAnswer("Does the contract still auto-renew?", mem)
	if !strings.Contains(got.Response, "no longer auto-renews") {
		t.Fatalf("answer %q, want the recap's current item", got.Response)
	}
}

// TestOneItemClauseWithAPastValueIsStale fails when a clause that is one
// statement of a past value survives the per-item rule.
func TestOneItemClauseWithAPastValueIsStale(t *testing.T) {
	if _, ok := withoutPastItems("the budget is 224,000 USD", map[string]bool{"224,000": true}); ok {
		t.Fatal("a one-item clause kept its rest")
	}
}
