package app

import (
	"slices"
	"testing"
)

// A confirmation that erases one value and keeps another erases only the
// first; a value said in an erasing clause stays a target.
func TestErasureKeepsTheValueSaidCurrent(t *testing.T) {
	for _, c := range []struct {
		sentence string
		want     []string
	}{
		{"Deletion applied on the finance side: 2,760 USD is removed from retained memory; 2,730 USD remains current.", []string{"2,760 USD"}},
		{"Cleanup notice: retired badge SOL-9206 has been deleted from the working record, and only SOL-9214 remains active.", []string{"SOL-9206"}},
		{"Please delete 2,760 USD and 2,730 USD from memory.", []string{"2,760 USD", "2,730 USD"}},
		{"Remove 2,760 USD from memory; 2,760 USD remains current in the ledger.", []string{"2,760 USD"}},
		{"Delete 'conditional pass pending audit' and keep only the broad wording 'committee review'.", []string{"conditional pass pending audit"}},
		{"Delete 'conditional pass pending audit' and 'committee review'.", []string{"conditional pass pending audit", "committee review"}},
	} {
		got := withoutKept(c.sentence, erasureTargets(c.sentence, nil))
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: targets %q, want %q", c.sentence, got, c.want)
		}
	}
}
