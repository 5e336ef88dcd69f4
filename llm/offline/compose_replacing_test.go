package offline

import (
	"strings"
	"testing"
)

// TestNewValueBeforeReplacedIsCurrent fails when a clause that states its
// new value before the one it replaces ("is K-204, replacing the earlier
// K-199") is taken for past: the answer then gives the older note's
// replaced value or none.
func TestNewValueBeforeReplacedIsCurrent(t *testing.T) {
	memory := []itemAt{
		{id: "new", value: "Rotation note: the new active lab door code is door_TMP_K-204, replacing the earlier door_TMP_K-199."},
		{id: "old", value: "The current lab door code is still door_TMP_K-199."},
	}
	cls := clausesOf(memory)
	marksStale(cls)
	var current []string
	for _, c := range cls {
		if !c.stale {
			current = append(current, c.text)
		}
	}
	got := strings.Join(current, " | ")
	if !strings.Contains(got, "door_TMP_K-204") || strings.Contains(got, "door_TMP_K-199") {
		t.Fatalf("current clauses %q, want the one naming door_TMP_K-204 and none naming door_TMP_K-199", got)
	}
}
